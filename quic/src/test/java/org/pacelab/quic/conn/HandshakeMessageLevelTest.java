package org.pacelab.quic.conn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.QuicException;
import org.pacelab.quic.TransportError;
import org.pacelab.quic.crypto.CipherSuite;
import org.pacelab.quic.packet.EncryptionLevel;
import org.pacelab.quic.tls.KeyLogSink;
import org.pacelab.quic.tls.TlsConfig;
import org.pacelab.quic.tls.TlsHandshake;

/**
 * RFC 9001 §4 (Table 1): a TLS handshake message at an encryption level where it cannot occur closes the connection
 * with unexpected_message (0x010a), before TLS sees it. Found by fuzzing: an EncryptedExtensions in a client's Initial
 * reached the server's TLS engine, which had no key schedule yet, and the secrets it was then asked for threw.
 */
class HandshakeMessageLevelTest {
    private static final TlsHandshake.Listener NONE = new TlsHandshake.Listener() {
        @Override public void onSecrets(EncryptionLevel level, CipherSuite suite, byte[] c, byte[] s) { }
        @Override public void onPeerTransportParameters(byte[] encoded) { }
        @Override public void onHandshakeComplete() { }
    };

    private static TlsHandshake server() {
        TestCertificates.Identity id = TestCertificates.ec();
        return TlsHandshake.server(TlsConfig.server(List.of("hq-interop"), TlsConfig.ALL_SUITES, List.of(id.certificate()), id.key()),
                new byte[0], NONE, KeyLogSink.NONE);
    }

    private static TlsHandshake client() {
        return TlsHandshake.client(TlsConfig.client(List.of("hq-interop"), TlsConfig.ALL_SUITES, "localhost", null, false),
                new byte[0], NONE, KeyLogSink.NONE);
    }

    /** A handshake message of this type with an empty body (4 bytes: type, 24-bit length 0). */
    private static byte[] message(int type) {
        return new byte[] {(byte) type, 0, 0, 0};
    }

    private static long closeCode(TlsHandshake h, EncryptionLevel level, int type) {
        return assertThrows(QuicException.class, () -> h.receive(level, 0, message(type))).errorCode();
    }

    @Test
    void serverRefusesAnythingButClientHelloInInitial() {
        long unexpected = TransportError.cryptoError(10);
        assertEquals(unexpected, closeCode(server(), EncryptionLevel.INITIAL, 8)); // EncryptedExtensions
        assertEquals(unexpected, closeCode(server(), EncryptionLevel.INITIAL, 2)); // ServerHello
        assertEquals(unexpected, closeCode(server(), EncryptionLevel.INITIAL, 20)); // Finished
    }

    @Test
    void clientHelloOnlyInInitialAndNoTicketsToTheServer() {
        long unexpected = TransportError.cryptoError(10);
        assertEquals(unexpected, closeCode(server(), EncryptionLevel.HANDSHAKE, 1));
        assertEquals(unexpected, closeCode(server(), EncryptionLevel.ONE_RTT, 4));
    }

    @Test
    void clientRefusesClientHelloAndKeyUpdate() {
        long unexpected = TransportError.cryptoError(10);
        TlsHandshake c = client();
        assertEquals(unexpected, closeCode(c, EncryptionLevel.INITIAL, 1));
        // RFC 9001 §6: a TLS KeyUpdate (type 24) is unexpected_message
        assertEquals(unexpected, closeCode(client(), EncryptionLevel.ONE_RTT, 24));
    }

    @Test
    void endOfEarlyDataIsAProtocolViolation() {
        // RFC 9001 §8.3
        assertEquals(TransportError.PROTOCOL_VIOLATION.code, closeCode(server(), EncryptionLevel.HANDSHAKE, 5));
    }
}
