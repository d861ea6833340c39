package org.pacelab.quic.conn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.frame.AckFrequencyFrame;
import org.pacelab.quic.frame.ImmediateAckFrame;
import org.pacelab.quic.tls.TlsConfig;

/**
 * ACK frequency (draft-ietf-quic-ack-frequency) between two pacelab endpoints, and with peers that do not
 * support it: a data sender asks for fewer ACKs once its window is large enough, the receiver honours the
 * request, and nothing of it reaches a peer that did not announce min_ack_delay.
 */
class AckFrequencyTest {
    private static final List<String> ALPN = List.of("hq-interop");

    private record Run(FrameLog client, FrameLog server, EchoApps.Client app) {
        /** Packets of nothing but ACK the client sent per packet of stream data the server sent. */
        double clientAcksPerDataPacket() {
            return (double) client.ackOnlyPacketsSent / server.dataPacketsSent;
        }
    }

    private static Run echo(ConnectionConfig server, ConnectionConfig client, byte[] msg, double loss) throws Exception {
        FrameLog serverLog = new FrameLog();
        FrameLog clientLog = new FrameLog();
        EchoApps.Client app = new EchoApps.Client(msg);
        ConnectionPair pair = new ConnectionPair(app, new EchoApps.Server(), server.withQlog(o -> serverLog),
                client.withQlog(o -> clientLog), 10_000_000L, 601);
        pair.lossRate = loss;
        // a 100 Mbit/s bottleneck: packets arrive one by one, so each can call for an ACK
        pair.rateBytesPerSecond = 12_500_000L;
        pair.start();
        assertTrue(pair.runUntil(app::done, 60_000_000_000L), "echo did not complete: server " + pair.server.counters());
        assertArrayEquals(msg, app.replies[0]);
        return new Run(clientLog, serverLog, app);
    }

    private static byte[] message(int n) {
        byte[] b = new byte[n];
        new Random(n).nextBytes(b);
        return b;
    }

    private static ConnectionConfig server() {
        return ConnectionPair.baseConfig(ALPN, TlsConfig.ALL_SUITES, false).withMaxAckRatio(ConnectionConfig.SUGGESTED_MAX_ACK_RATIO);
    }

    private static ConnectionConfig client() {
        return ConnectionPair.baseConfig(ALPN, TlsConfig.ALL_SUITES, true).withMaxAckRatio(ConnectionConfig.SUGGESTED_MAX_ACK_RATIO);
    }

    @Test
    void aDataSenderAsksForFewerAcksAndGetsThem() throws Exception {
        // a little loss ends slow start early (the sender asks for fewer ACKs only after slow start); without it
        // HyStart++'s conservative slow start outlasts a transfer this short
        byte[] msg = message(3_000_000);
        Run asked = echo(server(), client(), msg, 0.002);
        Run rfc = echo(server().withMaxAckRatio(0), client().withMaxAckRatio(0), msg, 0.002);
        assertTrue(asked.client.received(AckFrequencyFrame.class) >= 1, "ACK_FREQUENCY: server sent "
                + asked.server.sent(AckFrequencyFrame.class) + ", client sent " + asked.client.sent(AckFrequencyFrame.class)
                + "; ACKs per data packet " + asked.clientAcksPerDataPacket() + ", lost " + asked.server.lost);
        assertEquals(0, rfc.client.received(AckFrequencyFrame.class));
        // RFC 9000 §13.2.2: an ACK every second packet; asked for up to 10 packets per ACK, far fewer
        assertTrue(rfc.clientAcksPerDataPacket() > 0.4, "RFC 9000 ACK ratio " + rfc.clientAcksPerDataPacket());
        assertTrue(asked.clientAcksPerDataPacket() < 0.25, "ACKs per data packet " + asked.clientAcksPerDataPacket()
                + " against " + rfc.clientAcksPerDataPacket() + " without ACK frequency");
    }

    @Test
    void fewerAcksStillRecoverFromLoss() throws Exception {
        Run run = echo(server(), client(), message(1_000_000), 0.03);
        assertTrue(run.server.received(AckFrequencyFrame.class) + run.client.received(AckFrequencyFrame.class) >= 1);
        assertTrue(run.server.lost > 0);
    }

    @Test
    void aPeerWithoutTheExtensionGetsNoneOfItsFrames() throws Exception {
        // the server does not announce min_ack_delay (as ngtcp2 or quiche might not): the client sends it no
        // ACK_FREQUENCY and no IMMEDIATE_ACK, and the other way round
        byte[] msg = message(1_000_000);
        Run run = echo(server().withMinAckDelay(-1), client(), msg, 0.02);
        assertEquals(0, run.client.sent(AckFrequencyFrame.class));
        assertEquals(0, run.client.sent(ImmediateAckFrame.class));
        Run other = echo(server(), client().withMinAckDelay(-1), msg, 0.02);
        assertEquals(0, other.server.sent(AckFrequencyFrame.class));
        assertEquals(0, other.server.sent(ImmediateAckFrame.class));
    }

    @Test
    void probesAndTheLastPacketBeforeIdleAskForAnImmediateAck() throws Exception {
        Run run = echo(server(), client(), message(2_000_000), 0.03);
        assertTrue(run.server.sent(ImmediateAckFrame.class) >= 1, "the echo's tail or a probe carries IMMEDIATE_ACK");
        assertTrue(run.client.received(ImmediateAckFrame.class) >= 1);
    }
}
