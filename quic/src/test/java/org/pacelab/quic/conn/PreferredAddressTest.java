package org.pacelab.quic.conn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;

import org.pacelab.quic.TransportParameters;
import org.pacelab.quic.frame.Frame;
import org.pacelab.quic.frame.NewConnectionIdFrame;
import org.pacelab.quic.frame.PaddingFrame;
import org.pacelab.quic.frame.PathChallengeFrame;
import org.pacelab.quic.frame.PathResponseFrame;
import org.pacelab.quic.packet.PacketParser;
import org.pacelab.quic.packet.PacketType;
import org.pacelab.quic.packet.StatelessReset;
import org.pacelab.quic.qlog.QlogSink;
import org.pacelab.quic.tls.TlsConfig;
import org.junit.jupiter.api.Test;

/** A server's preferred address (RFC 9000 §9.6) and a client's move to it, through the connection pair in paths mode. */
class PreferredAddressTest {
    private static final InetSocketAddress PREFERRED = new InetSocketAddress("203.0.113.9", 8443);
    private static final long ONE_WAY = 10_000_000L;

    /** Records the frames of the packets a connection sent since the last {@link #take}, and its migration events. */
    private static final class Recorder implements QlogSink {
        private final List<Frame> frames = new ArrayList<>();
        final List<String> migration = new ArrayList<>();

        @Override
        public boolean enabled() {
            return true;
        }

        @Override
        public void packetSent(long now, PacketType type, long packetNumber, int length, long intendedSendTime, List<Frame> f) {
            frames.addAll(f);
        }

        @Override
        public void migrationStateUpdated(long now, String state, String path, String reason) {
            migration.add(state + (reason.isEmpty() ? "" : ": " + reason));
        }

        List<Frame> take() {
            List<Frame> f = List.copyOf(frames);
            frames.clear();
            return f;
        }
    }

    /** RFC 9000 §9.1: PATH_CHALLENGE, PATH_RESPONSE, NEW_CONNECTION_ID and PADDING are probing frames. */
    private static boolean nonProbing(List<Frame> frames) {
        return frames.stream().anyMatch(f -> !(f instanceof PathChallengeFrame || f instanceof PathResponseFrame
                || f instanceof NewConnectionIdFrame || f instanceof PaddingFrame));
    }

    private final Recorder clientLog = new Recorder();
    private final Recorder serverLog = new Recorder();

    private ConnectionPair pair(EchoApps.Client app, boolean clientMigrates, long seed) {
        ConnectionConfig server = ConnectionPair.baseConfig(List.of("hq-interop"), TlsConfig.ALL_SUITES, false)
                .withPreferredAddress(PreferredAddressConfig.of(PREFERRED)).withQlog(odcid -> serverLog);
        ConnectionConfig client = ConnectionPair.baseConfig(List.of("hq-interop"), TlsConfig.ALL_SUITES, true)
                .withUsePreferredAddress(clientMigrates).withQlog(odcid -> clientLog);
        ConnectionPair pair = new ConnectionPair(app, new EchoApps.Server(), server, client, ONE_WAY, seed);
        pair.paths = true;
        pair.serverPreferred = PREFERRED;
        pair.useEndpoint(false);
        return pair;
    }

    private static byte[] message(int size, int seed) {
        byte[] m = new byte[size];
        new Random(seed).nextBytes(m);
        return m;
    }

    @Test
    void theServerOffersItsPreferredAddressWithConnectionIdOneAndItsResetToken() throws Exception {
        EchoApps.Client app = new EchoApps.Client(message(1000, 1));
        ConnectionPair pair = pair(app, false, 51);
        pair.start();
        assertTrue(pair.runUntil(() -> pair.client.isHandshakeConfirmed(), 5_000_000_000L));
        TransportParameters.PreferredAddress p = pair.client.peerTransportParameters().preferredAddress();
        assertNotNull(p);
        assertArrayEquals(PREFERRED.getAddress().getAddress(), p.ipv4Address());
        assertEquals(8443, p.ipv4Port());
        assertArrayEquals(new byte[16], p.ipv6Address(), "no IPv6 address offered: all zeros (§18.2)");
        assertEquals(0, p.ipv6Port());
        // the connection ID of sequence number 1 (§5.1.1): the server's second, issued before any NEW_CONNECTION_ID
        List<byte[]> ids = pair.server.localConnectionIds();
        assertArrayEquals(ids.get(1), p.connectionId());
        assertEquals(4, ids.size(), "seq 1 counts toward the client's active_connection_id_limit of 4");
        assertFalse(java.util.Arrays.equals(pair.server.statelessResetTokenForTest(), p.statelessResetToken()),
                "each connection ID has its own stateless reset token (§10.3)");

        // §10.3.1: a stateless reset with the preferred address's token ends the client's connection
        pair.injectToClient(StatelessReset.build(43, p.statelessResetToken(), new SplittableRandom(3)));
        assertEquals(QuicConnection.State.DRAINING, pair.client.state());
        assertEquals("stateless reset", pair.client.closeReason());
    }

    @Test
    void theClientValidatesThePreferredAddressAndMovesThereWithANewConnectionId() throws Exception {
        byte[] msg = message(1_500_000, 2);
        EchoApps.Client app = new EchoApps.Client(msg);
        ConnectionPair pair = pair(app, true, 52);
        Set<String> dcidsToOriginal = new LinkedHashSet<>();
        Set<String> dcidsToPreferred = new LinkedHashSet<>();
        Set<String> serverDcidsFromOriginal = new LinkedHashSet<>();
        Set<String> serverDcidsFromPreferred = new LinkedHashSet<>();
        pair.onSend = (c, r) -> {
            if (r.path() == null || pair.client == null) {
                return;
            }
            byte[] d = new byte[r.length()];
            pair.buffer.duplicate().flip().get(d);
            String dcid;
            try {
                dcid = HexFormat.of().formatHex(PacketParser.parse(ByteBuffer.wrap(d), 0, 8).dcid());
            } catch (Exception e) {
                throw new AssertionError(e);
            }
            if (c == pair.client) {
                (r.path().remote().equals(PREFERRED) ? dcidsToPreferred : dcidsToOriginal).add(dcid);
            } else {
                (PREFERRED.equals(r.path().local()) ? serverDcidsFromPreferred : serverDcidsFromOriginal).add(dcid);
            }
        };
        pair.start();
        assertTrue(pair.runUntil(app::done, 60_000_000_000L));
        assertArrayEquals(msg, app.replies[0]);
        assertEquals(new NetworkPath(null, PREFERRED), pair.client.path());
        assertEquals(1L, pair.client.counters().get("migrations"), pair.client.counters().toString());
        ServerEndpoint.Entry e = pair.endpoint.connections().iterator().next();
        assertEquals(PREFERRED, e.local(), "the server sends from its preferred address");
        assertEquals(1L, pair.server.counters().get("migrations"), pair.server.counters().toString());
        assertFalse(dcidsToPreferred.isEmpty());
        Set<String> reused = new LinkedHashSet<>(dcidsToPreferred);
        reused.retainAll(dcidsToOriginal);
        assertTrue(reused.isEmpty(), "§9.5: no connection ID used on both paths: " + reused);
        String preferredCid = HexFormat.of().formatHex(pair.client.peerTransportParameters().preferredAddress().connectionId());
        assertEquals(preferredCid, dcidsToPreferred.iterator().next(), "the probe goes to the preferred address's ID");
        // §9.5 for the server too: from its preferred address to a connection ID of the client's it had not used
        assertFalse(serverDcidsFromPreferred.isEmpty());
        Set<String> serverReused = new LinkedHashSet<>(serverDcidsFromPreferred);
        serverReused.retainAll(serverDcidsFromOriginal);
        assertTrue(serverReused.isEmpty(), "§9.5: the server used a connection ID from both addresses: " + serverReused);
        assertEquals(List.of("probing_started: preferred address", "probing_successful", "migration_complete"), clientLog.migration);
        // only the port of the server's address would keep the congestion state (§9.4); this one is a new address
        assertEquals(1L, pair.client.counters().get("path_congestion_resets"));
        // §9.4 for the server: the client's address stays, but the server's own address is new
        assertEquals(1L, pair.server.counters().get("path_congestion_resets"), pair.server.counters().toString());
    }

    @Test
    void theServerSendsNonProbingPacketsFromItsPreferredAddressOnlyOnceTheClientsArrivedThere() throws Exception {
        byte[] msg = message(1_500_000, 3);
        EchoApps.Client app = new EchoApps.Client(msg);
        ConnectionPair pair = pair(app, true, 53);
        long[] clientNonProbingArrival = {Long.MAX_VALUE};
        long[] serverFirstNonProbing = {Long.MAX_VALUE};
        List<List<Frame>> serverFirstFromPreferred = new ArrayList<>();
        pair.onSend = (c, r) -> {
            if (c == pair.client) {
                List<Frame> frames = clientLog.take();
                if (r.path() != null && r.path().remote().equals(PREFERRED) && nonProbing(frames)) {
                    clientNonProbingArrival[0] = Math.min(clientNonProbingArrival[0], pair.now + ONE_WAY);
                }
            } else {
                List<Frame> frames = serverLog.take();
                if (r.path() != null && PREFERRED.equals(r.path().local())) {
                    if (serverFirstFromPreferred.isEmpty()) {
                        serverFirstFromPreferred.add(frames);
                    }
                    if (nonProbing(frames)) {
                        serverFirstNonProbing[0] = Math.min(serverFirstNonProbing[0], pair.now);
                    }
                }
            }
        };
        pair.start();
        assertTrue(pair.runUntil(app::done, 60_000_000_000L));
        assertArrayEquals(msg, app.replies[0]);
        assertTrue(serverFirstNonProbing[0] < Long.MAX_VALUE, "the server moved to its preferred address");
        assertTrue(serverFirstNonProbing[0] >= clientNonProbingArrival[0], "first non-probing packet from the preferred "
                + "address at " + serverFirstNonProbing[0] + ", the client's first there arrived at " + clientNonProbingArrival[0]);
        // the server's first datagram there answers the client's challenge and probes the path itself (§9.6.2)
        List<Frame> first = serverFirstFromPreferred.get(0);
        assertTrue(first.stream().anyMatch(f -> f instanceof PathResponseFrame), first.toString());
        assertTrue(first.stream().anyMatch(f -> f instanceof PathChallengeFrame), first.toString());
    }

    @Test
    void aPreferredAddressThatDoesNotAnswerLeavesTheClientOnItsPath() throws Exception {
        byte[] msg = message(300_000, 4);
        EchoApps.Client app = new EchoApps.Client(msg);
        ConnectionPair pair = pair(app, true, 54);
        pair.preferredUnreachable = true;
        List<Long> challengesAt = new ArrayList<>();
        pair.onSend = (c, r) -> {
            if (c == pair.client && clientLog.take().stream().anyMatch(f -> f instanceof PathChallengeFrame)) {
                challengesAt.add(pair.now);
            }
        };
        pair.start();
        assertTrue(pair.runUntil(() -> app.done() && pair.client.counters().get("path_probes_failed") == 1,
                60_000_000_000L), pair.client.counters().toString());
        assertArrayEquals(msg, app.replies[0]);
        assertEquals(new NetworkPath(null, ConnectionPair.SERVER_ADDRESS), pair.client.path());
        assertEquals(0L, pair.client.counters().get("migrations"));
        // §8.2.1: not more often than an Initial: after the new path's initial PTO (3 kInitialRtt), then doubled, within
        // the validation time (§8.2.4: 3 * (999 ms + 25 ms max_ack_delay), the new path's PTO being larger than this
        // 20 ms path's); not every PTO of this path
        assertEquals(3, challengesAt.size(), challengesAt.toString());
        assertEquals(ChallengeSchedule.INITIAL_PTO, challengesAt.get(1) - challengesAt.get(0));
        assertEquals(2 * ChallengeSchedule.INITIAL_PTO, challengesAt.get(2) - challengesAt.get(1));
        assertEquals(QuicConnection.State.ESTABLISHED, pair.client.state());
        assertEquals("probing_abandoned: path validation failed: no PATH_RESPONSE within 3 * max(current PTO, new path's "
                + "PTO with kInitialRtt)", clientLog.migration.get(clientLog.migration.size() - 1));
        ServerEndpoint.Entry e = pair.endpoint.connections().iterator().next();
        assertNotEquals(PREFERRED, e.local(), "the server stays on its original address");
    }

    @Test
    void aClientToldNotToMoveStaysOnTheHandshakePath() throws Exception {
        byte[] msg = message(200_000, 5);
        EchoApps.Client app = new EchoApps.Client(msg);
        ConnectionPair pair = pair(app, false, 55);
        List<InetSocketAddress> arrivedAt = new ArrayList<>();
        pair.onServerReceive = arrivedAt::add;
        pair.start();
        assertTrue(pair.runUntil(app::done, 60_000_000_000L));
        assertArrayEquals(msg, app.replies[0]);
        assertFalse(arrivedAt.contains(PREFERRED));
        assertEquals(0L, pair.client.counters().get("migrations"));
        assertNotEquals(null, pair.client.peerTransportParameters().preferredAddress());
    }

    @Test
    void aGarbageDatagramAtThePreferredAddressChangesNoPathState() throws Exception {
        // RFC 9000 §9.3, §21.5.4: a spoofed datagram with the server's connection ID that does not decrypt neither starts
        // a probe (no PATH_CHALLENGE toward the spoofed source) nor counts toward an allowance
        EchoApps.Client app = new EchoApps.Client(message(1000, 6));
        ConnectionPair pair = pair(app, false, 56);
        pair.start();
        assertTrue(pair.runUntil(app::done, 5_000_000_000L));
        InetSocketAddress spoofed = new InetSocketAddress("192.0.2.66", 4444);
        byte[] garbage = message(1200, 7);
        garbage[0] = 0x41;
        byte[] cid = pair.server.localConnectionIds().get(0);
        System.arraycopy(cid, 0, garbage, 1, cid.length);
        pair.server.receive(ByteBuffer.wrap(garbage), 0, new NetworkPath(PREFERRED, spoofed), pair.now);
        assertFalse(pair.server.isPeerAddress(spoofed), "no probe toward the spoofed source");
        ByteBuffer out = ByteBuffer.allocate(65536);
        for (int i = 0; i < 100; i++) {
            out.clear();
            SendResult r = pair.server.send(out, pair.now);
            if (!r.wrote()) {
                break;
            }
            assertFalse(r.path() != null && spoofed.equals(r.path().remote()), "a datagram went to the spoofed source");
        }
        assertFalse(serverLog.migration.stream().anyMatch(m -> m.startsWith("probing_started")), serverLog.migration.toString());
        assertEquals(0L, pair.server.counters().get("migrations"));
    }

    @Test
    void aFailedProbeRetiresItsConnectionIdOnBothSides() throws Exception {
        // RFC 9000 §9.5, §5.1.2: the client's probes reach the preferred address, the server's answers from there are lost;
        // both validations fail and each side retires the peer's ID it probed with (ngtcp2 conn_on_path_validation_failed)
        byte[] msg = message(300_000, 8);
        EchoApps.Client app = new EchoApps.Client(msg);
        ConnectionPair pair = pair(app, true, 57);
        pair.preferredRepliesLost = true;
        List<Long> clientRetired = new ArrayList<>();
        List<Long> serverRetired = new ArrayList<>();
        Set<String> serverDcidsFromPreferred = new LinkedHashSet<>();
        pair.onSend = (c, r) -> {
            List<Frame> frames = (c == pair.client ? clientLog : serverLog).take();
            for (Frame f : frames) {
                if (f instanceof org.pacelab.quic.frame.RetireConnectionIdFrame rc) {
                    (c == pair.client ? clientRetired : serverRetired).add(rc.sequenceNumber());
                }
            }
            if (c != pair.client && r.path() != null && PREFERRED.equals(r.path().local())) {
                byte[] d = new byte[r.length()];
                pair.buffer.duplicate().flip().get(d);
                try {
                    serverDcidsFromPreferred.add(HexFormat.of().formatHex(PacketParser.parse(ByteBuffer.wrap(d), 0, 8).dcid()));
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            }
        };
        pair.start();
        assertTrue(pair.runUntil(() -> app.done() && pair.client.counters().get("path_probes_failed") == 1
                && pair.server.counters().get("path_probes_failed") == 1 && !serverRetired.isEmpty()
                && !clientRetired.isEmpty(), 60_000_000_000L), pair.client.counters() + " " + pair.server.counters());
        assertArrayEquals(msg, app.replies[0]);
        assertEquals(List.of(1L), clientRetired, "the client retires the preferred address's ID, sequence 1");
        assertEquals(1, serverRetired.size(), serverRetired.toString());
        assertTrue(serverRetired.get(0) >= 1, "not the client's ID the server sends to: " + serverRetired);
        assertEquals(1, serverDcidsFromPreferred.size(), serverDcidsFromPreferred.toString());
        // the retirements arrive: neither side keeps the ID the other probed with among its own
        byte[] preferredCid = pair.client.peerTransportParameters().preferredAddress().connectionId();
        String probedClientCid = serverDcidsFromPreferred.iterator().next();
        assertTrue(pair.runUntil(() -> pair.server.localConnectionIds().stream().noneMatch(id -> java.util.Arrays.equals(id, preferredCid))
                && pair.client.localConnectionIds().stream().noneMatch(id -> HexFormat.of().formatHex(id).equals(probedClientCid)),
                10_000_000_000L));
        assertEquals(0L, pair.client.counters().get("migrations"));
        assertEquals(0L, pair.server.counters().get("migrations"));
        assertEquals(QuicConnection.State.ESTABLISHED, pair.client.state());
    }

    @Test
    void withoutAnUnusedClientConnectionIdTheServerAnswersButNeitherProbesNorMoves() throws Exception {
        // RFC 9000 §9.5: no connection ID from two local addresses; the server has none of the client's unused (as with a
        // client that issues none) when the client's probe reaches the preferred address
        byte[] msg = message(300_000, 9);
        EchoApps.Client app = new EchoApps.Client(msg);
        ConnectionPair pair = pair(app, true, 58);
        List<Long> dropped = new ArrayList<>();
        pair.onServerReceive = local -> {
            if (PREFERRED.equals(local) && dropped.isEmpty()) {
                PeerConnectionIds ids = pair.server.peerConnectionIdsForTest();
                for (long s = ids.nextUnused(); s >= 0; s = ids.nextUnused()) {
                    assertTrue(ids.retire(s));
                    dropped.add(s);
                }
                dropped.add(-1L);
            }
        };
        List<List<Frame>> fromPreferred = new ArrayList<>();
        pair.onSend = (c, r) -> {
            if (c != pair.client) {
                List<Frame> frames = serverLog.take();
                if (r.path() != null && PREFERRED.equals(r.path().local())) {
                    fromPreferred.add(frames);
                }
            }
        };
        pair.start();
        assertTrue(pair.runUntil(app::done, 60_000_000_000L));
        assertArrayEquals(msg, app.replies[0]);
        assertFalse(dropped.isEmpty(), "the client reached the preferred address");
        assertFalse(fromPreferred.isEmpty(), "the challenge is answered where it came (§8.2.2)");
        for (List<Frame> frames : fromPreferred) {
            assertTrue(frames.stream().allMatch(f -> f instanceof PathResponseFrame || f instanceof PaddingFrame),
                    "only PATH_RESPONSE from the preferred address, no probe, no non-probing packet: " + frames);
        }
        assertTrue(fromPreferred.stream().anyMatch(f -> f.stream().anyMatch(x -> x instanceof PathResponseFrame)));
        assertEquals(0L, pair.server.counters().get("migrations"));
        assertEquals(0L, pair.server.counters().get("path_probes_failed"));
        ServerEndpoint.Entry e = pair.endpoint.connections().iterator().next();
        assertNotEquals(PREFERRED, e.local(), "the server stays on its original address");
        assertEquals(QuicConnection.State.ESTABLISHED, pair.server.state());
    }
}
