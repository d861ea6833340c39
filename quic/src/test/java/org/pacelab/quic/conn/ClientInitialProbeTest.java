package org.pacelab.quic.conn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.frame.AckFrame;
import org.pacelab.quic.frame.Frame;
import org.pacelab.quic.frame.PingFrame;
import org.pacelab.quic.packet.EncryptionLevel;
import org.pacelab.quic.stream.CryptoDataSent;
import org.pacelab.quic.tls.TlsConfig;

/**
 * A client's PING-only Initial probes make the server send its flight again (RFC 9002 §6.2.3, §6.2.4), from the interop
 * runner's handshakecorruption against gtlsclient (ngtcp2; {@code InteropCasesNgtcp2Test}, one seed in five to seven
 * failed): the server's ACK-only Initial ({@link InitialAckFirst}) reached the client, so the client had no ClientHello
 * left to send and probed with bare PINGs; every datagram of the server with the ServerHello was corrupted, and the
 * server, answering each PING with an ACK only, sent the ServerHello again at its own backed-off PTO alone (1, 3, 7, 15,
 * 31 s) until it idled out at 62 s. Here the same losses, deterministic: the server answers a PING with its ServerHello
 * and Handshake data at once, unless a copy of them (its PTO's or an earlier answer) left less than one un-backed-off PTO
 * before.
 */
class ClientInitialProbeTest {
    private static final long MS = 1_000_000L;
    private static final long ONE_WAY = 15 * MS;
    /**
     * The server's un-backed-off PTO before it has an RTT sample (nothing ack-eliciting of it was acknowledged):
     * 333 ms + 4 × 166.5 ms (RFC 9002 §6.2.1, §6.2.2; no max_ack_delay in a handshake space).
     */
    private static final long SERVER_PTO = 999 * MS;

    private static boolean carriesCrypto(List<Frame> frames, EncryptionLevel level) {
        return frames.stream().anyMatch(f -> f instanceof CryptoDataSent c && c.level() == level);
    }

    private static boolean pingOnly(List<Frame> frames) {
        return frames.stream().anyMatch(f -> f instanceof PingFrame) && !frames.stream().anyMatch(f -> f instanceof CryptoDataSent);
    }

    /** The pair, its server's and client's frame logs, and what the link saw. */
    private static final class Run {
        final FrameLog serverLog = new FrameLog();
        final FrameLog clientLog = new FrameLog();
        final byte[] msg = new byte[1000];
        final EchoApps.Client app;
        final ConnectionPair pair;
        /** When the server sent a datagram with Initial CRYPTO data (its ServerHello), ns of virtual time. */
        final List<Long> serverHelloTimes = new ArrayList<>();
        /** Whether that datagram carried the server's Handshake data too. */
        final List<Boolean> withHandshakeData = new ArrayList<>();
        /** When a PING-only Initial of the client reached the server. */
        final List<Long> pingArrivals = new ArrayList<>();
        int clientHellos;
        int serverAckOnlyInitials;

        /** The virtual time the pair starts at. */
        final long start;

        /**
         * Server datagrams with the ServerHello are lost while {@code lost} says so, given the copies so far (this one
         * included) and the time since the start.
         */
        Run(java.util.function.BiPredicate<Integer, Long> lost) {
            new Random(16).nextBytes(msg);
            app = new EchoApps.Client(msg);
            List<String> alpn = List.of("hq-interop");
            ConnectionConfig serverConfig = ConnectionPair.baseConfig(alpn, TlsConfig.ALL_SUITES, false)
                    .withQlog(odcid -> serverLog);
            ConnectionConfig clientConfig = ConnectionPair.baseConfig(alpn, TlsConfig.ALL_SUITES, true).toBuilder()
                    .qlog(odcid -> clientLog).build();
            pair = new ConnectionPair(app, new EchoApps.Server(), serverConfig, clientConfig, ONE_WAY, 16);
            start = pair.now;
            pair.toClientFilter = d -> {
                List<Frame> frames = serverLog.takeDatagram();
                if (carriesCrypto(frames, EncryptionLevel.INITIAL)) {
                    serverHelloTimes.add(pair.now);
                    withHandshakeData.add(carriesCrypto(frames, EncryptionLevel.HANDSHAKE));
                    return lost.test(serverHelloTimes.size(), pair.now - start) ? null : d;
                }
                if (frames.stream().allMatch(f -> f instanceof AckFrame)) {
                    // the ACK of the ClientHello arrives; the later ACK-only Initials are lost: the client's PINGs
                    // acknowledge nothing after it (gtlsclient's carried no ACK frame), so no loss detection (RFC 9002
                    // §6.1) sends the ServerHello again, only a PTO or the server's answer to a PING
                    return serverAckOnlyInitials++ == 0 ? d : null;
                }
                return d;
            };
            pair.toServerFilter = d -> {
                List<Frame> frames = clientLog.takeDatagram();
                if (carriesCrypto(frames, EncryptionLevel.INITIAL)) {
                    clientHellos++;
                } else if (pingOnly(frames)) {
                    pingArrivals.add(pair.now + ONE_WAY);
                }
                return d;
            };
        }

        /** Runs until the client completes the handshake; returns when it did, ns since the start. */
        long handshake() throws Exception {
            pair.start();
            assertTrue(pair.runUntil(() -> pair.client.state() != QuicConnection.State.HANDSHAKE, 120_000 * MS),
                    "client " + pair.client.state() + ", ServerHello sent at " + times(serverHelloTimes, start));
            assertEquals(QuicConnection.State.ESTABLISHED, pair.client.state(), pair.client.closeReason());
            return pair.now - start;
        }

        void finish() {
            assertTrue(pair.runUntil(app::done, 60_000 * MS), "client " + pair.client.state() + " " + pair.client.closeReason());
            assertArrayEquals(msg, app.replies[0]);
        }
    }

    private static List<Long> times(List<Long> at, long start) {
        return at.stream().map(t -> (t - start) / MS).toList();
    }

    @Test
    void theServerAnswersTheClientsPingProbesWithItsFlightWhileItsServerHelloIsUnacknowledged() throws Exception {
        // the first flight and the next two copies of the ServerHello are lost, as every copy behind the runner's corruption
        Run run = new Run((copies, elapsed) -> copies <= 3);
        long start = run.start;
        long handshake = run.handshake();
        run.finish();
        List<Long> sent = times(run.serverHelloTimes, start);
        List<Long> pings = times(run.pingArrivals, start);
        // the ClientHello arrived once and the server's ACK of it too: the client's probes are PINGs (RFC 9002 §6.2.2.1)
        assertEquals(1, run.clientHellos);
        assertTrue(run.serverAckOnlyInitials >= 1);
        assertTrue(run.pingArrivals.size() >= 2, "PINGs arrived at " + pings);
        // every PING that arrived before the handshake completed found a ServerHello sent within one un-backed-off PTO
        // before it, most at its arrival (RFC 9002 §6.2.3)
        for (long arrival : run.pingArrivals) {
            if (arrival - start > handshake) {
                continue;
            }
            assertTrue(run.serverHelloTimes.stream().anyMatch(t -> t <= arrival && arrival - t <= SERVER_PTO),
                    "PINGs arrived at " + pings + " ms, ServerHello sent at " + sent + " ms");
        }
        // the copy that got through (the fourth) answered a PING at once
        long fourth = run.serverHelloTimes.get(3);
        assertTrue(run.pingArrivals.contains(fourth), "PINGs arrived at " + pings + " ms, ServerHello sent at " + sent + " ms");
        // every copy carries the Handshake data with it (the client can read none of it without the ServerHello)
        assertTrue(run.withHandshakeData.subList(0, 4).stream().allMatch(b -> b), "with Handshake data: " + run.withHandshakeData);
        // the server's PTO alone would send its fourth copy at 1 + 2 + 4 = 7 s (RFC 9002 §6.2.1 backoff)
        assertTrue(handshake < 3_000 * MS, "handshake took " + handshake / MS + " ms; ServerHello sent at " + sent
                + " ms, PINGs arrived at " + pings + " ms");
    }

    @Test
    void aPingSoonAfterTheServersPtoCopyDrawsNoSecondFlight() throws Exception {
        // as above: the first flight and the next two copies of the ServerHello are lost
        Run run = new Run((copies, elapsed) -> copies <= 3);
        long start = run.start;
        long handshake = run.handshake();
        run.finish();
        List<Long> sent = times(run.serverHelloTimes, start);
        List<Long> pings = times(run.pingArrivals, start);
        String timeline = "PINGs arrived at " + pings + " ms, ServerHello sent at " + sent + " ms";
        List<Long> copies = run.serverHelloTimes.subList(1, run.serverHelloTimes.size());
        // copies the server's PTO sent (at no PING's arrival), and a PING that arrived less than one un-backed-off PTO
        // after one of them, before the handshake completed
        List<Long> ptoCopies = copies.stream().filter(t -> !run.pingArrivals.contains(t)).toList();
        assertTrue(!ptoCopies.isEmpty(), timeline);
        List<Long> soonAfter = run.pingArrivals.stream().filter(a -> a - start < handshake
                && ptoCopies.stream().anyMatch(t -> t < a && a - t < SERVER_PTO)).toList();
        assertTrue(!soonAfter.isEmpty(), timeline);
        // it drew no flight (RFC 9002 §6.2.3, §6.2.1: the copy it may not have seen had not been out one PTO), and no
        // copy followed another within one un-backed-off PTO (a PTO's copy, then a PING's answer, or the reverse)
        assertTrue(soonAfter.stream().noneMatch(run.serverHelloTimes::contains), timeline);
        for (int i = 1; i < copies.size(); i++) {
            assertTrue(copies.get(i) - copies.get(i - 1) >= SERVER_PTO, timeline);
        }
        // a PING one PTO and more after the newest copy drew the flight at once: the fourth copy, which got through,
        // before the server's backed-off PTO would have sent it
        long fourth = run.serverHelloTimes.get(3);
        assertTrue(run.pingArrivals.contains(fourth) && fourth - copies.get(1) > SERVER_PTO, timeline);
        assertTrue(handshake < 3_000 * MS, "handshake took " + handshake / MS + " ms; " + timeline);
    }

    @Test
    void aBurstOfPingsWithinOnePtoDrawsOneResend() throws Exception {
        // every ServerHello sent in the first second is lost
        Run run = new Run((copies, elapsed) -> elapsed < 1_000 * MS);
        long start = run.start;
        run.handshake();
        run.finish();
        List<Long> sent = times(run.serverHelloTimes, start);
        List<Long> pings = times(run.pingArrivals, start);
        long firstPing = run.pingArrivals.getFirst();
        // the client's PTO probes (two at a time, its RTT from the server's ACK 30 ms) arrive at 135, 315 and 675 ms:
        // six within the server's un-backed-off PTO (999 ms without an RTT sample) of the first
        long inOnePto = run.pingArrivals.stream().filter(t -> t - firstPing < SERVER_PTO).count();
        assertTrue(inOnePto >= 4, "PINGs arrived at " + pings + " ms");
        // the first flight, then one copy, at the first PING's arrival; the next one only a PTO later
        List<Long> withinPto = run.serverHelloTimes.stream().filter(t -> t < firstPing + SERVER_PTO).toList();
        assertEquals(List.of(run.serverHelloTimes.getFirst(), firstPing), withinPto,
                "PINGs arrived at " + pings + " ms, ServerHello sent at " + sent + " ms");
    }
}
