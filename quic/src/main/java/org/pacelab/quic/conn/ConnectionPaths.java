package org.pacelab.quic.conn;

import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;

import org.pacelab.quic.TransportParameters;
import org.pacelab.quic.frame.PathResponseFrame;
import org.pacelab.quic.qlog.QlogSink;
import org.pacelab.quic.recovery.Recovery;

/**
 * The paths of one connection (RFC 9000 §9): the one it sends on, and another being probed, a server's preferred
 * address (§9.6.1 from the client's side, §9.6.2 from the server's), with the peer's connection IDs each uses (§9.5)
 * and the qlog's migration events. The connection tells it each received datagram's path and the probing frames in it;
 * it tells the connection when a move to another host needs fresh congestion and RTT state (§9.4). A peer address
 * change on the current local address (a NAT rebinding, a client's migration, §9.3) is validated by the connection's
 * {@link PathValidator}; this class only follows it. Sans-I/O: paths are values the runtime gives.
 */
final class ConnectionPaths {
    private final boolean isClient;
    private final RandomGenerator random;
    private final QlogSink qlog;
    private final PeerConnectionIds peerCids;
    private final PendingFrames pending;
    /** The current PTO and the peer's max_ack_delay, for a probe's validation timeout (§8.2.4). */
    private final Recovery recovery;
    /** Server: whether it offers a preferred_address (RFC 9000 §18.2). */
    private final boolean offersPreferredAddress;

    /** The path the connection sends on, or null while the runtime has not said (then paths are its own business). */
    private NetworkPath current;
    /** The path of the datagram being processed, or null. */
    private NetworkPath datagramPath;
    /** Another path being validated: a server's preferred address (§9.6), or null. */
    private PathProbe probe;
    /** The datagram being processed arrived on the probe's path (or opened one at our preferred address). */
    private boolean onProbe;
    /** PATH_CHALLENGE data of the datagram being read at our preferred address, before a probe exists (§9.6.2). */
    private List<byte[]> preferredChallenges;
    private long migrations;
    private long probesFailed;

    ConnectionPaths(boolean isClient, RandomGenerator random, QlogSink qlog, PeerConnectionIds peerCids,
                    PendingFrames pending, Recovery recovery, boolean offersPreferredAddress) {
        this.isClient = isClient;
        this.random = random;
        this.qlog = qlog;
        this.peerCids = peerCids;
        this.pending = pending;
        this.recovery = recovery;
        this.offersPreferredAddress = offersPreferredAddress;
    }

    /** The path the connection starts on, if none is set yet. */
    void start(NetworkPath path) {
        if (current == null) {
            current = path;
        }
    }

    /** The path datagrams go on, or null when the runtime never said. */
    NetworkPath current() {
        return current;
    }

    /** Whether {@code address} is the peer's on the current path or on one being probed (a runtime's receive filter). */
    boolean isPeerAddress(InetSocketAddress address) {
        return current != null && current.remote().equals(address) || probe != null && probe.path().remote().equals(address);
    }

    // ---------------------------------------------------------------------------------------------
    // A received datagram: before its packets, their probing frames, after them
    // ---------------------------------------------------------------------------------------------

    /**
     * A datagram arrived on {@code path}; its packets are processed next. The first path a connection hears of is the one
     * it sends on.
     *
     * @param serverEstablished a server whose handshake is complete and whose connection is established: a datagram
     *                          at another local address than the current path's is at its preferred address (the
     *                          runtime has two sockets; the offered address may differ from the bound one behind a NAT)
     */
    void beforeDatagram(NetworkPath path, boolean serverEstablished) {
        start(path);
        datagramPath = path;
        onProbe = probe != null && probe.path().equals(path);
        boolean atPreferred = !onProbe && serverEstablished && !path.sameLocal(current) && offersPreferredAddress
                && migrations == 0;
        preferredChallenges = atPreferred ? new ArrayList<>() : null;
    }

    /** A PATH_CHALLENGE of the datagram being processed (RFC 9000 §8.2.2: answered on the path it came on). */
    void onPathChallenge(byte[] data) {
        if (probe != null && datagramPath != null && datagramPath.equals(probe.path())) {
            probe.respond(data);
        } else if (preferredChallenges != null) {
            preferredChallenges.add(data.clone()); // answered on the preferred address's path once it exists
        } else {
            pending.pathResponses.add(new PathResponseFrame(data));
        }
    }

    /** A PATH_RESPONSE that did not answer the current path's challenge: perhaps the probe's. */
    void onPathResponse(byte[] data, long now) {
        if (probe != null && probe.onResponse(data) && qlog.enabled()) {
            qlog.migrationStateUpdated(now, "probing_successful", describe(probe.path()), "");
        }
    }

    /**
     * The datagram's packets are processed. RFC 9000 §9.3, §21.5.4: only a datagram with a packet that decrypted changes
     * path state or counts toward the path's 3x allowance (§8.2.1); a spoofed or garbage datagram with our connection ID
     * neither starts nor replaces a probe. At a server's preferred address the client's PATH_CHALLENGE is answered there,
     * and the server probes the path toward the client from that address (§9.6.2), to a connection ID not used from the
     * original address when the client gave it one (§9.5).
     *
     * @return whether the datagram was on the probe's path
     */
    boolean afterPackets(int size, boolean authenticated, boolean established, long now) {
        NetworkPath path = datagramPath;
        List<byte[]> challenges = preferredChallenges;
        preferredChallenges = null;
        datagramPath = null;
        if (challenges != null && authenticated && established) {
            if (probe != null && probe.dcidSequence() >= 0 && peerCids.retire(probe.dcidSequence())) {
                // the probe this one replaces used its ID on another path (§9.5)
                pending.retireConnectionIds.add(probe.dcidSequence());
            }
            long seq = peerCids.nextUnused();
            if (seq >= 0) {
                startProbe(new PathProbe(path, peerCids.get(seq), seq, true, random, now, recovery.rtt().ptoBase(),
                        recovery.peerMaxAckDelay()), now);
            } else {
                // §9.5: "An endpoint MUST NOT reuse a connection ID when sending from more than one local address";
                // without an unused ID of the client's the server answers the challenge where it came (§8.2.2) but
                // neither probes nor moves there: its non-probing packets stay on the original address (as §9.6.2 has
                // them until the new path is validated)
                probe = new PathProbe(path, peerCids.current(), -1, true, false, random, now, recovery.rtt().ptoBase(),
                        recovery.peerMaxAckDelay());
            }
            for (byte[] c : challenges) {
                probe.respond(c);
            }
            onProbe = true;
        } else if (challenges != null) {
            for (byte[] c : challenges) {
                pending.pathResponses.add(new PathResponseFrame(c));
            }
        }
        if (onProbe && authenticated && probe != null && probe.path().equals(path)) {
            probe.onReceived(size);
        }
        return onProbe;
    }

    /** A server's probe path carried a non-probing packet with the largest packet number so far (§9.6.2). */
    void onNonProbingOnProbe() {
        if (probe != null) {
            probe.onNonProbingReceived();
        }
    }

    /** Whether {@code path} is a new peer address at the current local address (a candidate for §9.3's migration). */
    boolean isNewPeerAddress(NetworkPath path) {
        return !path.equals(current) && path.sameLocal(current);
    }

    /** RFC 9000 §9.3: the peer's largest non-probing packet came from a new address: send there while it is validated. */
    void followPeer(NetworkPath path) {
        current = path;
    }

    // ---------------------------------------------------------------------------------------------
    // Probing a server's preferred address, completing and abandoning a probe
    // ---------------------------------------------------------------------------------------------

    /**
     * Client, once the handshake is confirmed (RFC 9000 §9.6.1, §9): a server's preferred address of the family the
     * connection uses is probed with a PATH_CHALLENGE to the connection ID of sequence number 1; the client moves there
     * when the PATH_RESPONSE arrives ({@link #completeProbe}). disable_active_migration does not forbid this (§18.2).
     */
    void probePreferredAddress(TransportParameters.PreferredAddress offered, long now) {
        if (offered == null || current == null) {
            return;
        }
        InetSocketAddress to = PreferredAddressConfig.choose(offered, current.remote().getAddress() instanceof Inet6Address);
        if (to == null) {
            if (qlog.enabled()) {
                qlog.migrationStateUpdated(now, "probing_abandoned", "", "no preferred address in the address family in use");
            }
            return;
        }
        if (to.equals(current.remote()) || peerCids.get(1) == null) {
            return;
        }
        startProbe(new PathProbe(new NetworkPath(current.local(), to), peerCids.get(1), 1, false, random, now,
                recovery.rtt().ptoBase(), recovery.peerMaxAckDelay()), now);
    }

    private void startProbe(PathProbe p, long now) {
        probe = p;
        if (qlog.enabled()) {
            qlog.migrationStateUpdated(now, "probing_started", describe(p.path()), isClient ? "preferred address" : "");
        }
    }

    /**
     * A validated probe path becomes the current one: a client's at once (§9.6.1), a server's once a non-probing packet
     * with the largest packet number so far arrived on it too (§9.6.2); until then a server's non-probing packets leave
     * from its original address. Each side sends to the connection ID it probed with and retires the ones used before
     * (§9.5, §5.1.2): the client the preferred address's, the server one the client issued and it had not used.
     *
     * @param freshState run when the connection moved to another peer or local host (not only a new port): the
     *                   congestion controller and RTT estimate of the old path are not for the new one (§9.4; a server
     *                   moving to its preferred address has a new local address even if the client's stays)
     */
    void completeProbe(long now, Runnable freshState) {
        if (probe == null || !probe.validated() || !isClient && !probe.nonProbingReceived()) {
            return;
        }
        PathProbe p = probe;
        probe = null;
        NetworkPath old = current;
        current = p.path();
        migrations++;
        if (p.dcidSequence() >= 0) {
            pending.retireConnectionIds.addAll(peerCids.switchTo(p.dcidSequence()));
        }
        for (byte[] r : p.takeResponses()) {
            pending.pathResponses.add(new PathResponseFrame(r));
        }
        if (old != null && (!old.samePeerHost(current) || !old.sameLocalHost(current))) {
            freshState.run();
        }
        if (qlog.enabled()) {
            qlog.migrationStateUpdated(now, "migration_complete", describe(current), "");
        }
    }

    /** The probe whose datagram is due (a challenge, or answers to the peer's challenges on its path), or null. */
    PathProbe dueProbe() {
        return probe != null && probe.due() ? probe : null;
    }

    /** When the probe's next challenge or its validation timeout is due; {@code Long.MAX_VALUE} without a probe. */
    long timer() {
        return probe == null ? Long.MAX_VALUE : probe.timer();
    }

    void onTimeout(long now) {
        if (probe != null && now >= probe.timer() && probe.onTimeout(now)) {
            abandonProbe(now);
        }
    }

    /**
     * The probe's validation timed out (§8.2.4): the connection stays on its path. The peer's connection ID the probe went
     * to is retired unless it is the one the connection sends to (§9.5, §5.1.2), a client's of the preferred address
     * and a server's it probed from its preferred address with alike.
     */
    private void abandonProbe(long now) {
        if (!probe.probing()) {
            probe = null; // it only answered challenges: nothing failed
            return;
        }
        if (qlog.enabled()) {
            qlog.migrationStateUpdated(now, "probing_abandoned", describe(probe.path()),
                    "path validation failed: no PATH_RESPONSE within 3 * max(current PTO, new path's PTO with kInitialRtt)");
        }
        if (probe.dcidSequence() >= 0 && peerCids.retire(probe.dcidSequence())) {
            pending.retireConnectionIds.add(probe.dcidSequence());
        }
        probe = null;
        probesFailed++;
    }

    /** Moves to a validated probe path so far. */
    long migrations() {
        return migrations;
    }

    /** Probes whose validation timed out. */
    long probesFailed() {
        return probesFailed;
    }

    private static String describe(NetworkPath p) {
        return (p.local() == null ? "" : hostPort(p.local()) + " ") + "-> " + hostPort(p.remote());
    }

    private static String hostPort(InetSocketAddress a) {
        return (a.getAddress() == null ? a.getHostString() : a.getAddress().getHostAddress()) + ":" + a.getPort();
    }
}
