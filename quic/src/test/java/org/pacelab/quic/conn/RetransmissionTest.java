package org.pacelab.quic.conn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.app.ApplicationHandler;
import org.pacelab.quic.app.StreamTransport;
import org.pacelab.quic.frame.HandshakeDoneFrame;
import org.pacelab.quic.frame.MaxDataFrame;
import org.pacelab.quic.frame.MaxStreamDataFrame;
import org.pacelab.quic.frame.MaxStreamsFrame;
import org.pacelab.quic.frame.NewConnectionIdFrame;
import org.pacelab.quic.frame.ResetStreamFrame;
import org.pacelab.quic.frame.StopSendingFrame;
import org.pacelab.quic.stream.StreamDataSent;
import org.pacelab.quic.stream.StreamLimits;
import org.pacelab.quic.tls.TlsConfig;

/**
 * What a lost packet carried is sent again (RFC 9000 §13.3): each kind of frame that must be repeated is lost
 * on purpose, the first times it is sent, and the connection still gets where it was going.
 */
class RetransmissionTest {
    private static final List<String> ALPN = List.of("hq-interop");

    /** Drops the first {@code times} datagrams that carry a frame of {@code frameClass}. */
    private static java.util.function.UnaryOperator<byte[]> dropFirst(FrameLog log, Class<?> frameClass, int times,
                                                                       int[] dropped) {
        return d -> {
            if (log.datagramCarries(frameClass) && dropped[0] < times) {
                dropped[0]++;
                return null;
            }
            return d;
        };
    }

    @Test
    void lostFlowControlUpdatesAreSentAgain() throws Exception {
        // windows that never grow: the sender stalls for good unless every lost MAX_DATA and MAX_STREAM_DATA is repeated
        StreamLimits small = new StreamLimits(48_000, 48_000, 24_000, 24_000, 16, 16, 1 << 20);
        FrameLog serverLog = new FrameLog();
        ConnectionConfig s = ConnectionPair.baseConfig(ALPN, TlsConfig.ALL_SUITES, false).withStreams(small)
                .withQlog(odcid -> serverLog);
        ConnectionConfig c = ConnectionPair.baseConfig(ALPN, TlsConfig.ALL_SUITES, true);
        byte[] msg = EchoApps.random(400_000, 1);
        EchoApps.Client client = new EchoApps.Client(msg);
        ConnectionPair pair = new ConnectionPair(client, new EchoApps.Server(), s, c, 5_000_000L, 201);
        int[] dropped = {0};
        int[] droppedData = {0};
        pair.toClientFilter = d -> {
            java.util.List<org.pacelab.quic.frame.Frame> frames = serverLog.takeDatagram();
            boolean streamUpdate = frames.stream().anyMatch(f -> f instanceof MaxStreamDataFrame);
            boolean connUpdate = frames.stream().anyMatch(f -> f instanceof MaxDataFrame);
            if (streamUpdate && dropped[0] < 4) {
                dropped[0]++;
                return null;
            }
            if (connUpdate && droppedData[0] < 4) {
                droppedData[0]++;
                return null;
            }
            return d;
        };
        pair.start();
        assertTrue(pair.runUntil(client::done, 60_000_000_000L), "echo stalled: server " + pair.server.counters());
        assertArrayEquals(msg, client.replies[0]);
        assertEquals(4, dropped[0]);
        assertEquals(4, droppedData[0]);
        assertTrue(serverLog.sent(MaxStreamDataFrame.class) > 4);
        assertTrue(serverLog.sent(MaxDataFrame.class) > 4);
    }

    @Test
    void lostMaxStreamsFramesAreSentAgain() throws Exception {
        StreamLimits fewStreams = new StreamLimits(16L << 20, 64L << 20, 8L << 20, 32L << 20, 4, 4, 8L << 20);
        FrameLog serverLog = new FrameLog();
        ConnectionConfig s = ConnectionPair.baseConfig(ALPN, TlsConfig.ALL_SUITES, false).withStreams(fewStreams)
                .withQlog(odcid -> serverLog);
        ConnectionConfig c = ConnectionPair.baseConfig(ALPN, TlsConfig.ALL_SUITES, true);
        byte[][] msgs = new byte[40][];
        for (int i = 0; i < msgs.length; i++) {
            msgs[i] = EchoApps.random(300, i);
        }
        EchoApps.Client client = new EchoApps.Client(msgs);
        ConnectionPair pair = new ConnectionPair(client, new EchoApps.Server(), s, c, 5_000_000L, 202);
        int[] dropped = {0};
        pair.toClientFilter = dropFirst(serverLog, MaxStreamsFrame.class, 5, dropped);
        pair.start();
        assertTrue(pair.runUntil(client::done, 60_000_000_000L), "completed " + client.completed);
        assertEquals(5, dropped[0]);
        assertTrue(serverLog.sent(MaxStreamsFrame.class) > 5);
    }

    @Test
    void lostNewConnectionIdFramesAreSentAgain() throws Exception {
        FrameLog serverLog = new FrameLog();
        FrameLog clientLog = new FrameLog();
        ConnectionConfig s = ConnectionPair.baseConfig(ALPN, TlsConfig.ALL_SUITES, false).withQlog(odcid -> serverLog);
        ConnectionConfig c = ConnectionPair.baseConfig(ALPN, TlsConfig.ALL_SUITES, true).withQlog(odcid -> clientLog);
        EchoApps.Client client = new EchoApps.Client(EchoApps.random(50_000, 3));
        ConnectionPair pair = new ConnectionPair(client, new EchoApps.Server(), s, c, 5_000_000L, 203);
        int[] dropped = {0};
        pair.toClientFilter = dropFirst(serverLog, NewConnectionIdFrame.class, 2, dropped);
        pair.start();
        assertTrue(pair.runUntil(client::done, 20_000_000_000L));
        pair.runUntil(() -> false, 2_000_000_000L);
        assertEquals(2, dropped[0]);
        // active_connection_id_limit 4 on both sides: the server issues three more IDs, and all three arrive
        // (some more than once: a probe may carry one again before its loss is declared)
        assertEquals(java.util.Set.of(1L, 2L, 3L), clientLog.receivedFrames.stream()
                .filter(f -> f instanceof NewConnectionIdFrame).map(f -> ((NewConnectionIdFrame) f).sequenceNumber())
                .collect(java.util.stream.Collectors.toSet()));
    }

    @Test
    void lostHandshakeDoneIsSentAgain() throws Exception {
        FrameLog serverLog = new FrameLog();
        ConnectionConfig s = ConnectionPair.baseConfig(ALPN, TlsConfig.ALL_SUITES, false).withQlog(odcid -> serverLog);
        ConnectionConfig c = ConnectionPair.baseConfig(ALPN, TlsConfig.ALL_SUITES, true);
        EchoApps.Client client = new EchoApps.Client(EchoApps.random(1000, 4));
        ConnectionPair pair = new ConnectionPair(client, new EchoApps.Server(), s, c, 5_000_000L, 204);
        int[] dropped = {0};
        pair.toClientFilter = dropFirst(serverLog, HandshakeDoneFrame.class, 2, dropped);
        pair.start();
        assertTrue(pair.runUntil(() -> client.done() && pair.client.isHandshakeConfirmed(), 20_000_000_000L));
        assertEquals(2, dropped[0]);
        assertTrue(serverLog.sent(HandshakeDoneFrame.class) >= 3);
    }

    @Test
    void lostTailIsRecoveredByProbes() throws Exception {
        // the datagrams that carry the echo's FIN are lost: nothing follows them, so only a probe can reveal the loss
        FrameLog serverLog = new FrameLog();
        ConnectionConfig s = ConnectionPair.baseConfig(ALPN, TlsConfig.ALL_SUITES, false).withQlog(odcid -> serverLog);
        ConnectionConfig c = ConnectionPair.baseConfig(ALPN, TlsConfig.ALL_SUITES, true);
        byte[] msg = EchoApps.random(200_000, 5);
        EchoApps.Client client = new EchoApps.Client(msg);
        ConnectionPair pair = new ConnectionPair(client, new EchoApps.Server(), s, c, 5_000_000L, 205);
        int[] dropped = {0};
        pair.toClientFilter = d -> {
            boolean fin = serverLog.takeDatagram().stream().anyMatch(f -> f instanceof StreamDataSent sd && sd.fin());
            if (fin && dropped[0] < 2) {
                dropped[0]++;
                return null;
            }
            return d;
        };
        pair.start();
        assertTrue(pair.runUntil(client::done, 20_000_000_000L));
        assertArrayEquals(msg, client.replies[0]);
        assertEquals(2, dropped[0]);
    }

    /** Client: one bidirectional stream with 10 KB and no FIN; later resets it and asks the server to stop sending. */
    static final class Abandoning implements ApplicationHandler {
        StreamTransport t;
        long id = -1;
        long resetCode = -1;

        @Override
        public void onConnected(StreamTransport transport) {
            t = transport;
            id = t.openStream(true);
            t.write(id, ByteBuffer.allocate(10_000), false);
        }

        @Override public void onStreamReadable(long streamId) {
            ByteBuffer b = ByteBuffer.allocate(65536);
            while (t.read(streamId, b) > 0) {
                b.clear();
            }
        }

        @Override public void onStreamReset(long streamId, long code) { resetCode = code; }

        void abandon() {
            t.resetStream(id, 7);
            t.stopSending(id, 9);
        }
    }

    /** Server: echoes without FIN what arrives, records resets and STOP_SENDING. */
    static final class Reflecting implements ApplicationHandler {
        StreamTransport t;
        long read;
        long resetCode = -1;
        long stopCode = -1;

        @Override public void onConnected(StreamTransport transport) { t = transport; }

        @Override
        public void onStreamReadable(long streamId) {
            ByteBuffer b = ByteBuffer.allocate(65536);
            int n;
            while ((n = t.read(streamId, b)) > 0) {
                read += n;
                b.flip();
                t.write(streamId, b, false);
                b.clear();
            }
        }

        @Override public void onStreamReset(long streamId, long code) { resetCode = code; }

        @Override public void onStopSending(long streamId, long code) { stopCode = code; }
    }

    @Test
    void lostResetStreamAndStopSendingAreSentAgain() throws Exception {
        FrameLog serverLog = new FrameLog();
        FrameLog clientLog = new FrameLog();
        ConnectionConfig s = ConnectionPair.baseConfig(ALPN, TlsConfig.ALL_SUITES, false).withQlog(odcid -> serverLog);
        ConnectionConfig c = ConnectionPair.baseConfig(ALPN, TlsConfig.ALL_SUITES, true).withQlog(odcid -> clientLog);
        Abandoning client = new Abandoning();
        Reflecting server = new Reflecting();
        ConnectionPair pair = new ConnectionPair(client, server, s, c, 5_000_000L, 206);
        pair.start();
        assertTrue(pair.runUntil(() -> server.read == 10_000, 10_000_000_000L));
        pair.runUntil(() -> false, 100_000_000L);
        int[] resetsDropped = {0};
        int[] stopsDropped = {0};
        int[] serverResetsDropped = {0};
        pair.toServerFilter = d -> {
            var frames = clientLog.takeDatagram();
            boolean reset = frames.stream().anyMatch(f -> f instanceof ResetStreamFrame);
            boolean stop = frames.stream().anyMatch(f -> f instanceof StopSendingFrame);
            if (reset && resetsDropped[0] < 2 || stop && stopsDropped[0] < 2) {
                resetsDropped[0] += reset ? 1 : 0;
                stopsDropped[0] += stop ? 1 : 0;
                return null;
            }
            return d;
        };
        pair.toClientFilter = dropFirst(serverLog, ResetStreamFrame.class, 1, serverResetsDropped);
        client.abandon();
        pair.flush();
        assertTrue(pair.runUntil(() -> server.resetCode >= 0 && server.stopCode >= 0 && client.resetCode >= 0,
                20_000_000_000L), "reset " + server.resetCode + " stop " + server.stopCode + " client " + client.resetCode);
        assertEquals(7, server.resetCode);
        assertEquals(9, server.stopCode);
        // STOP_SENDING makes the server reset its sending side with the code it was given (RFC 9000 §3.5)
        assertEquals(9, client.resetCode);
        assertEquals(2, resetsDropped[0]);
        assertEquals(2, stopsDropped[0]);
        assertEquals(1, serverResetsDropped[0]);
    }
}
