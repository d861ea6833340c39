package org.pacelab.quic.conn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.pacelab.quic.crypto.HeaderProtection;
import org.pacelab.quic.crypto.PacketKeys;
import org.pacelab.quic.packet.EncryptionLevel;
import org.pacelab.quic.packet.PacketNumbers;
import org.pacelab.quic.packet.PacketSpace;
import org.pacelab.quic.packet.PacketWriter;
import org.pacelab.quic.tls.TlsConfig;

/**
 * Bad input (issue 2, acceptance 6): noise never disturbs a transfer, and protocol violations on an
 * established connection close it with the RFC 9000 error code.
 */
class MalformedInputTest {

    @Test
    void thousandsOfRandomAndMutatedDatagramsDoNotDisturbATransfer() throws Exception {
        byte[] msg = new byte[1_500_000];
        new Random(7).nextBytes(msg);
        EchoApps.Client client = new EchoApps.Client(msg);
        EchoApps.Server server = new EchoApps.Server();
        ConnectionPair pair = new ConnectionPair(client, server, List.of("hq-interop"), TlsConfig.ALL_SUITES, 5_000_000L, 21);
        Random rnd = new Random(99);
        int[] injected = {0};
        pair.toServerFilter = d -> {
            for (int i = 0; i < 6; i++) {
                pair.injectToServer(mutate(d, i, rnd));
                injected[0]++;
            }
            return d;
        };
        pair.start();
        assertTrue(pair.runUntil(client::done, 60_000_000_000L), "transfer did not complete: " + pair.server.counters());
        assertArrayEquals(msg, client.replies[0]);
        assertTrue(injected[0] > 3000, "too few datagrams injected: " + injected[0]);
        assertEquals(-1, server.closedCode, "noise must not close the connection");
        assertTrue(pair.server.counters().get("packets_dropped") > 0);
    }

    private static byte[] mutate(byte[] d, int kind, Random rnd) {
        byte[] m;
        switch (kind) {
            case 0 -> { // random bytes
                m = new byte[1 + rnd.nextInt(1500)];
                rnd.nextBytes(m);
            }
            case 1 -> { // one bit flipped
                m = d.clone();
                int i = rnd.nextInt(m.length);
                m[i] ^= (byte) (1 << rnd.nextInt(8));
            }
            case 2 -> m = java.util.Arrays.copyOf(d, rnd.nextInt(d.length)); // truncated
            case 3 -> { // bogus lengths: a long header with an enormous Length field
                m = d.clone();
                if ((m[0] & 0x80) != 0 && m.length > 30) {
                    int dcidLen = m[5] & 0xff;
                    int at = Math.min(m.length - 2, 6 + dcidLen + 1 + (m[6 + dcidLen] & 0xff) + 1);
                    m[at] = (byte) 0xbf;
                    m[at + 1] = (byte) 0xff;
                } else {
                    m[rnd.nextInt(m.length)] = (byte) rnd.nextInt(256);
                }
            }
            case 4 -> { // valid first byte and destination connection ID, garbage after
                m = d.clone();
                int keep = (m[0] & 0x80) == 0 ? 9 : Math.min(m.length, 6 + (m[5] & 0xff));
                for (int i = keep; i < m.length; i++) {
                    m[i] = (byte) rnd.nextInt(256);
                }
            }
            default -> { // replayed datagram (duplicate packet numbers)
                m = d.clone();
            }
        }
        return m;
    }

    @ParameterizedTest(name = "{0} -> 0x{1}")
    @CsvSource({
            "unknown frame type 0x21,            21,                 07",
            "truncated STREAM frame,             0e0000ff,           07",
            "MAX_STREAMS above 2^60,             12d000000000000001, 07",
            "HANDSHAKE_DONE from a client,       1e,                 0a",
            "NEW_TOKEN from a client,            070101,             0a",
            "ACK of a packet never sent,         02be00000000,       0a",
            "STREAM on a server uni stream,      0b03000141,         05",
            "RESET_STREAM on a server uni stream, 04030000,          05",
            "STREAM beyond the stream limit,     0b4fa00141,         04",
            "data beyond flow control,           0e04be000000000141, 03",
            "streams beyond MAX_DATA together,   0e04807fffff01410e08807fffff01410e0c807fffff0141, 03",
            "a FIN changing the final size,      0f0401034141410f0401024141, 06",
            "data beyond the final size,         0f040101410e04020141, 06",
            "a final size below data received,   0e040501410b040141, 06",
            "STREAM in a 2-byte type,            400804000141,       0a",
            "RETIRE of an unissued ID,           1930,               0a",
            "ACK_FREQUENCY below min_ack_delay,  40af00090003,       0a",
            "ACK_FREQUENCY in a 4-byte type,     800000af0009447a03, 0a",
    })
    void protocolViolationClosesWithTheRfcErrorCode(String what, String frameHex, String expectedCodeHex) throws Exception {
        EchoApps.Client client = new EchoApps.Client("x".getBytes());
        EchoApps.Server server = new EchoApps.Server();
        ConnectionPair pair = new ConnectionPair(client, server, List.of("hq-interop"), TlsConfig.ALL_SUITES, 5_000_000L, 5);
        pair.start();
        assertTrue(pair.runUntil(() -> pair.server != null && pair.server.isHandshakeConfirmed() && client.done(), 5_000_000_000L));
        byte[] frames = HexFormat.of().parseHex(frameHex);
        pair.injectToServer(oneRttPacketFromClient(pair.client, frames));
        pair.flush();
        pair.runUntil(() -> client.closedCode >= 0, 2_000_000_000L);
        long expected = Long.parseLong(expectedCodeHex, 16);
        assertEquals(expected, server.closedCode, what + ": server close code");
        assertEquals(expected, client.closedCode, what + ": the client must receive CONNECTION_CLOSE with the code");
        assertFalse(pair.server.state() == QuicConnection.State.ESTABLISHED);
    }

    /** Builds a 1-RTT packet as the client would send it, carrying the given frame bytes. */
    static byte[] oneRttPacketFromClient(QuicConnection client, byte[] frames) {
        KeySchedule keys = client.keySchedule();
        PacketKeys tx = keys.tx(EncryptionLevel.ONE_RTT);
        long pn = client.takePacketNumber(PacketSpace.APPLICATION);
        ByteBuffer b = ByteBuffer.allocate(1500);
        PacketWriter.writeShortHeader(b, keys.keyPhase() == 1, false, client.peerConnectionId(), 4);
        int pnOffset = b.position();
        PacketNumbers.write(b, pn, 4);
        int payloadStart = b.position();
        b.put(frames);
        while (b.position() - payloadStart < 20) {
            b.put((byte) 0); // PADDING after the frame under test keeps the sample in range
        }
        int len = tx.seal(b, 0, payloadStart, payloadStart, b.position() - payloadStart, pn);
        HeaderProtection.apply(b, 0, pnOffset, tx);
        return java.util.Arrays.copyOf(b.array(), payloadStart + len);
    }
}
