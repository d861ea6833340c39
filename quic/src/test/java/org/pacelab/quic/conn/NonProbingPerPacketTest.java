package org.pacelab.quic.conn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.pacelab.quic.packet.EncryptionLevel;
import org.pacelab.quic.packet.PacketParser;
import org.pacelab.quic.packet.ParsedPacket;
import org.pacelab.quic.tls.TlsConfig;

/**
 * Whether a packet is non-probing (RFC 9000 §9.1) is a fact of that packet alone, even when its CRYPTO data makes the
 * connection process packets that waited for keys in the middle of its frames (nested: {@link FrameReceiver} runs again
 * for them before it has finished the first). The datagram that completes a server's handshake moves the path
 * (RFC 9000 §9.2, §9.3) when a non-probing 1-RTT packet with the largest number so far is processed with it, whatever
 * probing-only packet that packet's processing processes on the way.
 */
class NonProbingPerPacketTest {
    private static final List<String> ALPN = List.of("hq-interop");
    private static final long MS = 1_000_000L;
    /** CRYPTO, offset 0, length 1: the first byte of a TLS message at the 1-RTT level (TLS waits for the rest). */
    private static final byte[] CRYPTO = HexFormat.of().parseHex("06000104");
    /** PATH_CHALLENGE: a probing frame (RFC 9000 §9.1). */
    private static final byte[] PATH_CHALLENGE = HexFormat.of().parseHex("1a0102030405060708");

    /** The long-header packets of the client's datagrams (its Handshake packet with the Finished), in one datagram. */
    private static byte[] handshakePackets(List<byte[]> datagrams) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] d : datagrams) {
            int offset = 0;
            while (offset < d.length) {
                ParsedPacket p = PacketParser.parse(ByteBuffer.wrap(d), offset, 8);
                if (p.type().isLongHeader()) {
                    out.write(d, p.headerStart(), p.packetEnd() - p.headerStart());
                }
                offset = p.packetEnd();
            }
        }
        return out.toByteArray();
    }

    /**
     * {@code probingBehind}: a probing-only 1-RTT packet waits behind the non-probing one, so the non-probing one's
     * CRYPTO data has it processed in the middle of its own frames.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aNonProbingPacketStaysNonProbingWhenItsCryptoDataProcessesAProbingPacket(boolean probingBehind) throws Exception {
        StatelessResetTokens tokens = new StatelessResetTokens(new byte[32]);
        long t = 1_000 * MS;
        QuicConnection client = QuicConnection.client(ConnectionPair.baseConfig(ALPN, TlsConfig.ALL_SUITES, true),
                new EchoApps.Client(new byte[1]), new SplittableRandom(1), tokens, ConnectionPair.noCids(), t);
        List<byte[]> hello = ConnectionPair.datagrams(client, t);
        t += 10 * MS;
        QuicConnection server = ConnectionPair.serverFor(ConnectionPair.baseConfig(ALPN, TlsConfig.ALL_SUITES, false),
                tokens, hello.get(0), t);
        for (byte[] d : hello) {
            server.receive(ByteBuffer.wrap(d), t);
        }
        List<byte[]> flight = new java.util.ArrayList<>(ConnectionPair.datagrams(server, t));
        server.onTimeout(t);
        flight.addAll(ConnectionPair.datagrams(server, t));
        t += 10 * MS;
        for (byte[] d : flight) {
            client.receive(ByteBuffer.wrap(d), t);
        }
        assertTrue(client.keySchedule().hasTx(EncryptionLevel.ONE_RTT), "the client has the server's flight");
        byte[] finished = handshakePackets(ConnectionPair.datagrams(client, t));

        // 1-RTT packets that reach the server before the client's Finished wait for the handshake (RFC 9001 §5.7)
        t += 10 * MS;
        server.receive(ByteBuffer.wrap(MalformedInputTest.oneRttPacketFromClient(client, CRYPTO)), t);
        if (probingBehind) {
            server.receive(ByteBuffer.wrap(MalformedInputTest.oneRttPacketFromClient(client, PATH_CHALLENGE)), t);
        }
        assertFalse(server.isHandshakeComplete());
        assertEquals(1, server.counters().get("packets_received"), "the 1-RTT packets wait");

        int handshakePackets = 0;
        for (int offset = 0; offset < finished.length; handshakePackets++) {
            offset = PacketParser.parse(ByteBuffer.wrap(finished), offset, 8).packetEnd();
        }
        server.receive(ByteBuffer.wrap(finished), t);
        assertTrue(server.isHandshakeComplete());
        assertEquals(1 + handshakePackets + (probingBehind ? 2 : 1), server.counters().get("packets_received"),
                "the waiting packets were processed with the Finished");
        assertEquals(0, server.counters().get("packets_dropped"));
        assertTrue(server.onPeerAddressChanged(t, false),
                "the datagram processed a non-probing 1-RTT packet with the largest number so far");
    }
}
