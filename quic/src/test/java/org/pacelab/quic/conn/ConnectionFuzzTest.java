package org.pacelab.quic.conn;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.SplittableRandom;

import org.pacelab.quic.crypto.HeaderProtection;
import org.pacelab.quic.crypto.InitialSecrets;
import org.pacelab.quic.crypto.PacketKeys;
import org.pacelab.quic.frame.CryptoFrame;
import org.pacelab.quic.frame.FrameCodec;
import org.pacelab.quic.packet.PacketNumbers;
import org.pacelab.quic.packet.PacketType;
import org.pacelab.quic.packet.PacketWriter;
import org.pacelab.quic.packet.QuicVersion;
import org.pacelab.quic.content.SyntheticContent;
import org.pacelab.quic.hq.HqServerHandler;
import org.pacelab.quic.tls.TlsConfig;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Coverage-guided fuzzing of a connection behind the packet protection, where forged bytes cannot reach without
 * keys: (1) a correctly protected client Initial whose CRYPTO frame carries the fuzzed bytes — the TLS messages a
 * server parses (ClientHello and its extensions, our transport parameters) through agent15 and our glue; (2) a
 * correctly protected 1-RTT packet with fuzzed frames sent into an established connection (kept across inputs until it
 * closes or has taken 200, for speed; a handshake per input would be a hundred times slower). The server side runs
 * pacelab's real hq-interop application. Neither may throw: the connection goes on or closes with an error code
 * (RFC 9000 §11, §20).
 */
class ConnectionFuzzTest {
    private static final ConnectionConfig SERVER = ConnectionPair.baseConfig(List.of("hq-interop"), TlsConfig.ALL_SUITES, false);
    private static final InetSocketAddress CLIENT = new InetSocketAddress("192.0.2.1", 5000);

    @FuzzTest(maxDuration = "10s")
    void clientInitialCrypto(byte[] crypto) {
        byte[] dcid = {1, 2, 3, 4, 5, 6, 7, 8};
        byte[] scid = {9, 9, 9, 9};
        ByteBuffer b = ByteBuffer.allocate(Math.max(1400, crypto.length + 200));
        int lengthOffset = PacketWriter.writeLongHeader(b, PacketType.INITIAL, QuicVersion.V1, dcid, scid, new byte[0], 4, 2);
        int pnOffset = b.position();
        PacketNumbers.write(b, 0, 4);
        int payload = b.position();
        FrameCodec.encode(new CryptoFrame(0, crypto), b);
        while (b.position() < 1200 - 16) {
            b.put((byte) 0);
        }
        int plain = b.position() - payload;
        PacketWriter.patchLength(b, lengthOffset, 4 + plain + 16);
        PacketKeys keys = InitialSecrets.clientKeys(dcid);
        int sealed = keys.seal(b, 0, payload, payload, plain, 0);
        HeaderProtection.apply(b, 0, pnOffset, keys);
        ByteBuffer datagram = ByteBuffer.wrap(b.array(), 0, payload + sealed);

        ServerEndpoint endpoint = new ServerEndpoint(SERVER, a -> new HqServerHandler(SyntheticContent.only()), new SplittableRandom(1), new byte[32],
                false, 10);
        ServerEndpoint.Entry e = endpoint.receive(datagram, CLIENT, 1_000_000_000L, (d, to) -> { });
        if (e == null) {
            throw new AssertionError("a correctly protected Initial of 1200 bytes was dropped");
        }
        ByteBuffer out = ByteBuffer.allocate(65536);
        for (int i = 0; i < 32 && e.connection.send(out.clear(), 1_000_000_000L).wrote(); i++) {
            // what the server answers (ServerHello..., or CONNECTION_CLOSE)
        }
    }

    /** An established hq-interop connection to pacelab's real server application, kept until it closes. */
    private static ConnectionPair established;
    private static int inputsOnIt;

    private static ConnectionPair established() throws Exception {
        if (established != null && !established.server.isClosed() && inputsOnIt < 200) {
            inputsOnIt++;
            return established;
        }
        // a client that opens nothing: the connection idles, and what the fuzzer sends is all the server sees
        org.pacelab.quic.app.ApplicationHandler client = new org.pacelab.quic.app.ApplicationHandler() {
            @Override
            public void onConnected(org.pacelab.quic.app.StreamTransport transport) { }

            @Override
            public void onStreamReadable(long streamId) { }
        };
        ConnectionPair pair = new ConnectionPair(client, new HqServerHandler(SyntheticContent.only()), List.of("hq-interop"),
                TlsConfig.ALL_SUITES, 5_000_000L, 7);
        pair.start();
        if (!pair.runUntil(() -> pair.server != null && pair.server.isHandshakeConfirmed(), 5_000_000_000L)) {
            throw new AssertionError("the handshake did not complete");
        }
        established = pair;
        inputsOnIt = 0;
        return pair;
    }

    @FuzzTest(maxDuration = "10s")
    void oneRttFrames(byte[] frames) throws Exception {
        ConnectionPair pair = established();
        byte[] packet = MalformedInputTest.oneRttPacketFromClient(pair.client, java.util.Arrays.copyOf(frames,
                Math.min(frames.length, 1100)));
        pair.injectToServer(packet);
        pair.flush();
        pair.runUntil(() -> pair.server.isClosed(), 20_000_000L);
    }
}
