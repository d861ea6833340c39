package org.pacelab.quic.conn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.crypto.CipherSuite;
import org.pacelab.quic.frame.Frame;
import org.pacelab.quic.packet.PacketType;
import org.pacelab.quic.qlog.QlogSink;
import org.pacelab.quic.tls.TlsConfig;

/**
 * qlog's {@code transport:packet_received} names the packet that arrived. Found with Kwik: pacelab logged the
 * largest packet number received before it (so -1 for every first packet of a space, then one behind).
 */
class QlogPacketNumberTest {

    /** Records (type, packet number) of packet_sent and packet_received events. */
    private static final class Recorder implements QlogSink {
        final List<String> sent = new ArrayList<>();
        final List<String> received = new ArrayList<>();
        final List<Long> receivedAt = new ArrayList<>();
        final List<Long> remoteParametersAt = new ArrayList<>();

        @Override
        public void parametersSet(long now, boolean local, java.util.Map<String, Object> parameters) {
            if (!local) {
                remoteParametersAt.add(now);
            }
        }

        @Override
        public boolean enabled() {
            return true;
        }

        @Override
        public void packetSent(long now, PacketType type, long packetNumber, int length, long intendedSendTime,
                               List<Frame> frames) {
            sent.add(type + " " + packetNumber);
        }

        @Override
        public void packetReceived(long now, PacketType type, long packetNumber, int length, List<Frame> frames) {
            received.add(type + " " + packetNumber);
            receivedAt.add(now);
        }
    }

    @Test
    void packetReceivedCarriesThePacketNumberThePeerSent() throws Exception {
        Recorder clientLog = new Recorder();
        Recorder serverLog = new Recorder();
        byte[] msg = new byte[30_000];
        new java.util.Random(5).nextBytes(msg);
        EchoApps.Client client = new EchoApps.Client(msg);
        EchoApps.Server server = new EchoApps.Server();
        List<String> alpn = List.of("hq-interop");
        ConnectionPair pair = new ConnectionPair(client, server,
                ConnectionPair.baseConfig(alpn, TlsConfig.ALL_SUITES, false).withQlog(odcid -> serverLog),
                ConnectionPair.baseConfig(alpn, List.of(CipherSuite.AES_128_GCM_SHA256), true).withQlog(odcid -> clientLog),
                5_000_000L, 7);
        pair.start();
        assertTrue(pair.runUntil(client::done, 5_000_000_000L), "echo did not complete");
        // Lossless link without reordering: each side received exactly what the other sent, in order,
        // up to the packets still in flight when the echo completed.
        assertFalse(serverLog.received.isEmpty());
        assertEquals(clientLog.sent.subList(0, serverLog.received.size()), serverLog.received);
        assertEquals(serverLog.sent.subList(0, clientLog.received.size()), clientLog.received);
        assertTrue(serverLog.received.contains("INITIAL 0"), serverLog.received.toString());
    }

    /**
     * The peer's transport parameters are logged when the packet that carried them arrived (the server's: with the
     * client's Initial; the client's: with the server's Handshake packet). Found in an interop run: the server's
     * {@code parameters_set} (owner remote) was stamped 0 on the monotonic clock, minus the machine's uptime in qlog.
     */
    @Test
    void remoteParametersCarryTheirArrivalTime() throws Exception {
        Recorder clientLog = new Recorder();
        Recorder serverLog = new Recorder();
        EchoApps.Client client = new EchoApps.Client(new byte[1000]);
        List<String> alpn = List.of("hq-interop");
        ConnectionPair pair = new ConnectionPair(client, new EchoApps.Server(),
                ConnectionPair.baseConfig(alpn, TlsConfig.ALL_SUITES, false).withQlog(odcid -> serverLog),
                ConnectionPair.baseConfig(alpn, TlsConfig.ALL_SUITES, true).withQlog(odcid -> clientLog),
                5_000_000L, 7);
        pair.start();
        assertTrue(pair.runUntil(client::done, 5_000_000_000L), "echo did not complete");
        assertEquals(List.of(serverLog.receivedAt.getFirst()), serverLog.remoteParametersAt,
                "the server's: when the client's first Initial arrived");
        assertEquals(1, clientLog.remoteParametersAt.size());
        assertTrue(clientLog.receivedAt.contains(clientLog.remoteParametersAt.getFirst()),
                "the client's: when a packet of the server's first flight arrived, not " + clientLog.remoteParametersAt);
    }
}
