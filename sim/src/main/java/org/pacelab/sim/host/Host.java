package org.pacelab.sim.host;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;
import java.util.random.RandomGenerator;

import org.pacelab.io.runtime.Connections;
import org.pacelab.io.runtime.ServiceOrder;
import org.pacelab.quic.conn.QuicConnection;
import org.pacelab.quic.conn.SendResult;
import org.pacelab.sim.engine.Actor;
import org.pacelab.sim.qdisc.Qdisc;
import org.pacelab.sim.random.RandomScope;

/**
 * One endpoint's host in virtual time: the io runtime's event loop ({@link org.pacelab.io.runtime.EventLoop})
 * replayed step by step, each step charged its measured cost, around unmodified QUIC connections.
 *
 * <p>A loop turn: read datagrams (up to 256; one recvmsg, or recvmmsg batches, per read, each datagram's
 * processing charged), run due timers, then for each connection send what it releases (up to 64 datagrams: the
 * connection's CPU time per datagram, then sendmsg per datagram, or one sendmmsg / GSO call per batch), then
 * wait for the earliest pacer release or timer: with the send strategy when it is near (arrivals do not end that
 * wait), else in the socket's readiness wait (arrivals end it). Each wait resumes late by a sample of the host's
 * measured lateness. A datagram reaches the qdisc when its send call's cost has elapsed.
 *
 * <p>The TLS library's randomness is bound to this endpoint's seeded stream while its connections run
 * ({@link RandomScope}).
 */
public final class Host implements Actor {
    /** Datagrams read per turn at most, and datagrams sent per connection per turn at most (as the io loop). */
    static final int RECEIVE_PER_TURN = 256;
    static final int SEND_PER_FLUSH = 64;
    /** A loop that turns this often without virtual time passing is stuck (a connection keeps asking for now). */
    private static final int MAX_TURNS_WITHOUT_PROGRESS = 10_000;
    /** Largest UDP payload of a GSO buffer (64 KiB minus the IP and UDP headers). */
    private static final int GSO_MAX_BYTES = 65_507;

    private enum State { RUNNING, WAIT_STRATEGY, WAIT_SOCKET, STOPPED }

    private enum Phase { TURN, RECEIVE, RECEIVE_BATCH, PEERS, PEER, FLUSH, END_PEER, DECIDE }

    private final String role;
    private final Connections connections;
    private final HostConfig config;
    private final HostTiming timing;
    private final SendPathConfig path;
    private final WaitModel wait;
    private final SocketReceiveBuffer socket;
    private final KernelSendPath kernel;
    private final Qdisc qdisc;
    private final ToIntFunction<InetSocketAddress> flowOf;
    private final RandomScope scope;
    private final RandomScope.Source tlsRandom;
    private final EmissionQueue emissions = new EmissionQueue();
    private final Connections.Replies replies;
    private final ByteBuffer rx = ByteBuffer.allocate(65536);
    private final ByteBuffer tx = ByteBuffer.allocate(65536);
    private CallTimer timer;

    private State state = State.RUNNING;
    private Phase phase = Phase.TURN;
    private long resumeAt;
    private long opTime;
    private long receiveTime;
    private boolean arrivalWakeSet;
    private int receivedThisTurn;
    private int batchLeft;
    private final List<Connections.Peer> peers = new ArrayList<>();
    private int peerIndex;
    private final ServiceOrder order = new ServiceOrder();
    private int sendsThisFlush;
    private long flushWake;
    private long turnWake;
    private long lastTurnTime = Long.MIN_VALUE;
    private int turnsWithoutProgress;
    private long stoppedAt = -1;

    // the open sendmmsg or GSO batch of the current connection
    private final byte[][] batch;
    private final long[] batchTxtimes;
    private int batchCount;
    private int batchSegmentSize;
    private int batchBytes;
    private long batchTxtime;

    // counters
    private long datagramsSent;
    private long datagramsReceived;
    private long sendCalls;
    private long receiveCalls;
    private long turns;
    private long strategyWaits;
    private long socketWaits;
    private long socketWakesByArrival;

    /**
     * @param role        {@code server} or {@code client} (names in errors and counters)
     * @param connections the connections this host serves
     * @param qdisc       the host's qdisc (its NIC leads to the link)
     * @param flowOf      the link's flow id of the datagrams to a peer address
     * @param random      the host's own stream (timer and qdisc samples)
     * @param tlsRandom   the stream the TLS library draws from while this host's connections run
     * @param start       virtual time at which the host starts its loop
     */
    public Host(String role, Connections connections, HostConfig config, Qdisc qdisc, PacketIds ids,
                ToIntFunction<InetSocketAddress> flowOf, RandomGenerator random, RandomScope.Source tlsRandom, long start) {
        this.role = role;
        this.connections = connections;
        this.config = config;
        this.timing = config.timing();
        this.path = config.sendPath();
        this.wait = new WaitModel(config.send(), timing, random);
        this.socket = new SocketReceiveBuffer(config.udpBuffer());
        this.qdisc = qdisc;
        this.kernel = new KernelSendPath(qdisc, ids, path.pacedGso());
        this.flowOf = flowOf;
        this.scope = RandomScope.ofCurrentThread();
        this.tlsRandom = tlsRandom;
        this.resumeAt = start;
        int batchSize = Math.max(path.gsoSegments(), path.sendmmsgBatch());
        this.batch = new byte[batchSize][];
        this.batchTxtimes = new long[batchSize];
        this.replies = (datagram, to) -> {
            // stateless replies (Version Negotiation, Retry, stateless reset) are sent at once with sendmsg
            byte[] d = new byte[datagram.remaining()];
            datagram.duplicate().get(d);
            emissions.add(Math.max(receiveTime + timing.sendmsgNs(), emissions.lastTime()), d, 0, flowOf.applyAsInt(to), 0, 0);
            sendCalls++;
            datagramsSent++;
        };
    }

    /** Reports the wall-clock duration of every connection call to {@code t} (calibration; null = none). */
    public void timeCalls(CallTimer t) {
        this.timer = t;
    }

    /** A datagram from the link reaches this host's socket at {@code time} (the engine's now). */
    public void deliver(ByteBuffer datagram, InetSocketAddress from, long time) {
        if (!socket.offer(datagram, from, time)) {
            return;
        }
        if (state == State.WAIT_SOCKET && !arrivalWakeSet) {
            arrivalWakeSet = true;
            long wake = wait.socketWakeResume(time);
            if (wake < resumeAt) {
                resumeAt = wake;
                socketWakesByArrival++;
            }
        }
    }

    /**
     * The host's clock as its code reads it: the virtual time of the operation in progress (a datagram being
     * processed is read after its receive call's cost), for applications that time downloads.
     */
    public long clock() {
        return opTime;
    }

    /** Whether the host's loop has ended (a client whose connection finished). */
    public boolean stopped() {
        return state == State.STOPPED;
    }

    /** Virtual time at which the loop ended, or -1. */
    public long stoppedAt() {
        return stoppedAt;
    }

    /** Whether nothing is waiting to reach the qdisc or inside it. */
    public boolean drained() {
        return emissions.isEmpty() && qdisc.backlog() == 0;
    }

    @Override
    public long nextEventTime() {
        long t = emissions.firstTime();
        return state == State.STOPPED ? t : Math.min(t, resumeAt);
    }

    @Override
    public void fire(long now) {
        while (!emissions.isEmpty() && emissions.firstTime() <= now) {
            emissions.emitFirst(kernel, now);
        }
        if (state == State.STOPPED || resumeAt > now) {
            return;
        }
        if (state != State.RUNNING) {
            state = State.RUNNING;
            phase = Phase.TURN;
        }
        scope.use(tlsRandom);
        try {
            step(now);
        } finally {
            scope.clear();
        }
    }

    /** Runs zero-cost phases until one costs time (then {@link #resumeAt} is its end) or the loop waits. */
    private void step(long now) {
        opTime = now;
        while (true) {
            switch (phase) {
                case TURN -> {
                    turns++;
                    if (now == lastTurnTime) {
                        if (++turnsWithoutProgress > MAX_TURNS_WITHOUT_PROGRESS) {
                            throw new IllegalStateException(role + " event loop turned " + MAX_TURNS_WITHOUT_PROGRESS
                                    + " times at virtual time " + now + " ns without time passing: a connection's next"
                                    + " timeout or pacer release stays at or before now");
                        }
                    } else {
                        lastTurnTime = now;
                        turnsWithoutProgress = 0;
                    }
                    receivedThisTurn = 0;
                    phase = Phase.RECEIVE;
                    if (timing.loopNs() > 0) {
                        resumeAt = now + timing.loopNs();
                        return;
                    }
                }
                case RECEIVE -> {
                    if (receivedThisTurn >= RECEIVE_PER_TURN) {
                        phase = Phase.PEERS;
                        continue;
                    }
                    receiveCalls++;
                    if (path.recvBatch() == 1) {
                        if (socket.readable(now)) {
                            long at = now + timing.recvNs();
                            receiveOne(at);
                            resumeAt = at + timing.processCost(rx.limit());
                            return;
                        }
                        phase = Phase.PEERS;
                        if (timing.recvEmptyNs() > 0) {
                            resumeAt = now + timing.recvEmptyNs();
                            return;
                        }
                        continue;
                    }
                    int k = socket.readableCount(now, Math.min(path.recvBatch(), RECEIVE_PER_TURN - receivedThisTurn));
                    if (k == 0) {
                        phase = Phase.PEERS;
                        if (timing.recvEmptyNs() > 0) {
                            resumeAt = now + timing.recvEmptyNs();
                            return;
                        }
                        continue;
                    }
                    batchLeft = k;
                    phase = Phase.RECEIVE_BATCH;
                    long cost = timing.recvmmsgCallNs() + k * timing.recvmmsgPerPacketNs();
                    if (cost > 0) {
                        resumeAt = now + cost;
                        return;
                    }
                }
                case RECEIVE_BATCH -> {
                    receiveOne(now);
                    if (--batchLeft == 0) {
                        phase = Phase.RECEIVE;
                    }
                    long cost = timing.processCost(rx.limit());
                    if (cost > 0) {
                        resumeAt = now + cost;
                        return;
                    }
                }
                case PEERS -> {
                    peers.clear();
                    peers.addAll(connections.active());
                    // as the real-time event loop does: each turn starts one connection further along
                    Collections.rotate(peers, -order.first(peers.size()));
                    peerIndex = 0;
                    turnWake = Long.MAX_VALUE;
                    phase = Phase.PEER;
                }
                case PEER -> {
                    if (peerIndex >= peers.size()) {
                        phase = Phase.DECIDE;
                        continue;
                    }
                    QuicConnection c = peers.get(peerIndex).connection();
                    if (c.nextTimeout() <= now) {
                        c.onTimeout(now);
                    }
                    sendsThisFlush = 0;
                    flushWake = Long.MAX_VALUE;
                    phase = Phase.FLUSH;
                }
                case FLUSH -> {
                    if (flushStep(now)) {
                        return;
                    }
                }
                case END_PEER -> {
                    QuicConnection c = peers.get(peerIndex).connection();
                    turnWake = Math.min(turnWake, Math.min(flushWake, c.nextTimeout()));
                    peerIndex++;
                    phase = Phase.PEER;
                }
                case DECIDE -> {
                    decide(now);
                    return;
                }
            }
        }
    }

    private void receiveOne(long at) {
        InetSocketAddress from = socket.poll(rx);
        datagramsReceived++;
        receivedThisTurn++;
        int len = rx.limit();
        receiveTime = at;
        opTime = at;
        if (timer == null) {
            connections.receive(rx, from, at, replies);
        } else {
            long t0 = System.nanoTime();
            connections.receive(rx, from, at, replies);
            timer.received(len, System.nanoTime() - t0);
        }
        rx.limit(len);
    }

    /** One send of the current connection; returns true when the step cost time (resumeAt set). */
    private boolean flushStep(long now) {
        opTime = now;
        Connections.Peer peer = peers.get(peerIndex);
        QuicConnection c = peer.connection();
        if (sendsThisFlush == SEND_PER_FLUSH) {
            flushWake = now;
            return endFlush(now, peer);
        }
        tx.clear();
        SendResult r;
        if (timer == null) {
            r = c.send(tx, now);
        } else {
            long t0 = System.nanoTime();
            r = c.send(tx, now);
            if (r.wrote()) {
                timer.sent(r.length(), System.nanoTime() - t0);
            }
        }
        if (r.isBlockedByPacer()) {
            flushWake = r.blockedUntil() - path.pacingLookahead();
            return endFlush(now, peer);
        }
        if (!r.wrote()) {
            return endFlush(now, peer);
        }
        sendsThisFlush++;
        datagramsSent++;
        byte[] d = new byte[r.length()];
        tx.flip();
        tx.get(d);
        long txtime = path.txtime() ? r.intendedSendTime() : 0;
        long built = now + timing.buildCost(d.length);
        int flow = flowOf.applyAsInt(peer.address());
        if (path.gsoSegments() > 1) {
            long cost = 0;
            if (batchCount > 0 && (d.length > batchSegmentSize || batchCount == path.gsoSegments()
                    || batchBytes + d.length > GSO_MAX_BYTES)) {
                cost = closeBatch(built, peer);
            }
            addToBatch(d, txtime);
            if (batchCount > 1 && d.length < batchSegmentSize || batchCount == path.gsoSegments()) {
                cost += closeBatch(built + cost, peer);
            }
            resumeAt = built + cost;
            return true;
        }
        if (path.sendmmsgBatch() > 1) {
            addToBatch(d, txtime);
            long cost = batchCount == path.sendmmsgBatch() ? closeBatch(built, peer) : 0;
            resumeAt = built + cost;
            return true;
        }
        long at = built + timing.sendmsgNs();
        emissions.add(at, d, 0, flow, txtime, 0);
        sendCalls++;
        resumeAt = at;
        return true;
    }

    private void addToBatch(byte[] d, long txtime) {
        if (batchCount == 0) {
            batchSegmentSize = d.length;
            batchBytes = 0;
            batchTxtime = txtime;
        }
        batchTxtimes[batchCount] = txtime;
        batch[batchCount++] = d;
        batchBytes += d.length;
    }

    /** Ends the flush of the current connection: sends an open batch first. */
    private boolean endFlush(long now, Connections.Peer peer) {
        phase = Phase.END_PEER;
        long cost = batchCount > 0 ? closeBatch(now, peer) : 0;
        if (cost > 0) {
            resumeAt = now + cost;
            return true;
        }
        return false;
    }

    /** Issues the system call for the open batch starting at {@code at}; returns its cost. */
    private long closeBatch(long at, Connections.Peer peer) {
        int n = batchCount;
        int flow = flowOf.applyAsInt(peer.address());
        sendCalls++;
        long cost;
        if (path.gsoSegments() > 1) {
            cost = timing.gsoCallNs() + n * timing.gsoPerSegmentNs();
            byte[][] segments = new byte[n][];
            System.arraycopy(batch, 0, segments, 0, n);
            long rate = path.pacedGso() ? peer.connection().recovery().pacingRate() : 0;
            emissions.add(at + cost, segments, n, flow, batchTxtime, rate);
        } else {
            cost = timing.sendmmsgCallNs() + n * timing.sendmmsgPerPacketNs();
            for (int i = 0; i < n; i++) {
                long t = at + timing.sendmmsgCallNs() + (i + 1) * timing.sendmmsgPerPacketNs();
                emissions.add(t, batch[i], 0, flow, path.txtime() ? batchTxtimes[i] : 0, 0);
            }
        }
        java.util.Arrays.fill(batch, 0, n, null);
        batchCount = 0;
        return cost;
    }

    private void decide(long now) {
        opTime = now;
        connections.sweep();
        if (connections.finished()) {
            state = State.STOPPED;
            stoppedAt = now;
            return;
        }
        long delay = turnWake - now;
        if (delay <= 0) {
            phase = Phase.TURN;
            resumeAt = now;
            return;
        }
        if (delay > wait.socketWaitThreshold()) {
            socketWaits++;
            state = State.WAIT_SOCKET;
            arrivalWakeSet = false;
            if (socket.readable(now)) {
                resumeAt = now;
                arrivalWakeSet = true;
            } else {
                resumeAt = wait.socketTimeoutResume(now, wait.socketTimeout(now, turnWake));
            }
        } else {
            strategyWaits++;
            state = State.WAIT_STRATEGY;
            resumeAt = wait.strategyResume(now, turnWake);
        }
    }

    /** Counters of this host: its loop, system calls, socket and qdisc. */
    public Map<String, Long> counters() {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put(role + "_datagrams_sent", datagramsSent);
        m.put(role + "_datagrams_received", datagramsReceived);
        m.put(role + "_send_calls", sendCalls);
        m.put(role + "_receive_calls", receiveCalls);
        m.put(role + "_loop_turns", turns);
        m.put(role + "_strategy_waits", strategyWaits);
        m.put(role + "_socket_waits", socketWaits);
        m.put(role + "_socket_wakes_by_arrival", socketWakesByArrival);
        m.put(role + "_socket_receive_drops", socket.drops());
        for (Map.Entry<String, Long> e : qdisc.drops().entrySet()) {
            m.put(role + "_qdisc_" + e.getKey() + "_drops", e.getValue());
        }
        return m;
    }

    @Override
    public String toString() {
        return role + " host";
    }
}
