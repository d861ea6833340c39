package org.pacelab.quic.tls;

import java.nio.ByteBuffer;
import java.util.List;

import org.pacelab.quic.QuicException;
import org.pacelab.quic.crypto.CipherSuite;
import org.pacelab.quic.packet.EncryptionLevel;
import org.pacelab.quic.stream.SendBuffer;

/**
 * A TLS 1.3 handshake between a client and a server in memory, its messages passed between the two
 * {@link TlsHandshake}s as CRYPTO bytes per encryption level (RFC 9001 §4.1.3) with no packets: for a process's set-up
 * thread, so that the first real handshake finds the key exchange, the server's signature with its key, the
 * certificate's parsing, the key schedule and the TLS library's classes loaded and initialised instead of doing that
 * work while a peer waits (docs/benchmarks.md, issue 14, "the client's and server's start-up"). Nothing of it is
 * kept: no secrets, no session ticket (the server's tickets are left out), no key log.
 */
public final class HandshakeRehearsal {
    /** More flights than a full handshake needs; a handshake that has not completed by then is an error. */
    private static final int MAX_ROUNDS = 8;

    private HandshakeRehearsal() {}

    /**
     * Runs a handshake with {@code server} (a server's configuration: its certificate chain, key, suites and protocols)
     * against a client that offers the server's first protocol and suites and does not verify the certificate.
     * Returns the number of handshake bytes exchanged; throws {@link IllegalStateException} when it does not complete.
     */
    public static long run(TlsConfig server) {
        TlsConfig client = TlsConfig.client(List.of(server.applicationProtocols().get(0)), server.cipherSuites(),
                "localhost", null, false);
        Side c = new Side();
        Side s = new Side();
        TlsHandshake ch = TlsHandshake.client(client, new byte[0], c, KeyLogSink.NONE);
        // without the endpoint's session tickets: the rehearsal issues none and leaves no state behind
        TlsHandshake sh = TlsHandshake.server(server.withTickets(null), new byte[0], s, KeyLogSink.NONE);
        long bytes = 0;
        try {
            ch.start();
            for (int round = 0; round < MAX_ROUNDS && !(c.complete && s.complete); round++) {
                bytes += pass(ch, sh);
                bytes += pass(sh, ch);
            }
        } catch (QuicException e) {
            throw new IllegalStateException("the rehearsed TLS handshake failed: " + e.getMessage(), e);
        }
        if (!(c.complete && s.complete)) {
            throw new IllegalStateException("the rehearsed TLS handshake did not complete in " + MAX_ROUNDS + " rounds");
        }
        return bytes;
    }

    /**
     * A client's handshake up to its ClientHello (the client engine's classes, an X25519 key pair, the extensions'
     * encoding), thrown away; returns the ClientHello's length in bytes.
     */
    public static int clientHello() {
        TlsHandshake ch = TlsHandshake.client(TlsConfig.client(List.of("h3"), TlsConfig.ALL_SUITES, "localhost", null,
                false), new byte[0], new Side(), KeyLogSink.NONE);
        try {
            ch.start();
        } catch (QuicException e) {
            throw new IllegalStateException("the rehearsed ClientHello failed: " + e.getMessage(), e);
        }
        return (int) ch.outgoing(EncryptionLevel.INITIAL).writeOffset();
    }

    /** Hands what {@code from} has to send, at every level, to {@code to}; returns the bytes passed. */
    private static long pass(TlsHandshake from, TlsHandshake to) throws QuicException {
        long bytes = 0;
        for (EncryptionLevel level : EncryptionLevel.values()) {
            SendBuffer out = from.outgoing(level);
            long sent = out.sentOffset();
            int length = (int) (out.writeOffset() - sent);
            if (length == 0) {
                continue;
            }
            SendBuffer.Piece piece = out.next(length, Long.MAX_VALUE);
            ByteBuffer data = ByteBuffer.allocate(piece.length());
            out.copy(piece.offset(), piece.length(), data);
            to.receive(level, piece.offset(), data.array());
            bytes += piece.length();
        }
        return bytes;
    }

    /** One side's listener: the rehearsal only needs to know that the handshake completed. */
    private static final class Side implements TlsHandshake.Listener {
        boolean complete;

        @Override
        public void onSecrets(EncryptionLevel level, CipherSuite suite, byte[] clientSecret, byte[] serverSecret) {}

        @Override
        public void onPeerTransportParameters(byte[] encoded) {}

        @Override
        public void onHandshakeComplete() {
            complete = true;
        }
    }
}
