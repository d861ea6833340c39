package org.pacelab.quic.cc;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.function.LongUnaryOperator;

import org.pacelab.quic.packet.PacketSpace;
import org.pacelab.quic.recovery.DeliveryRateEstimator;
import org.pacelab.quic.recovery.RttEstimator;
import org.pacelab.quic.recovery.SentPacket;

/**
 * A scripted path for BBR tests, in virtual time: a bulk sender paced at BBR's rate, a bottleneck whose
 * rate follows a script (bytes/s as a function of time) with a drop-tail queue, a fixed propagation delay
 * and one ACK per packet. Loss is declared when a packet 3 numbers later is acknowledged (RFC 9002's packet
 * threshold). The connection's calls follow the order a pacelab connection uses.
 */
final class BbrPath {
    static final long MS = 1_000_000L;
    static final int MDS = 1200;

    record Transition(long time, BbrState state, double pacingGain, double cwndGain) {}

    private record Ack(long time, SentPacket packet) {}

    /** A packet declared lost at {@code time}, with C.lost right after it was marked lost. */
    record Loss(long time, PacketInfo packet, long lostAfter) {}

    final DeliveryRateEstimator estimator = new DeliveryRateEstimator();
    final BbrV3Controller bbr;
    final RttEstimator rtt = new RttEstimator();
    final List<Transition> transitions = new ArrayList<>();
    final List<Long> cwndDuringProbeRtt = new ArrayList<>();
    final List<RateSample> samples = new ArrayList<>();
    final List<PacketInfo> lostPackets = new ArrayList<>();
    final List<Loss> losses = new ArrayList<>();

    private final LongUnaryOperator bottleneckRate;
    /** The propagation delay a packet leaving the bottleneck at a time meets, ns (fixed unless a test scripts it). */
    LongUnaryOperator propagationDelay;
    private final int bufferPackets;
    private final PriorityQueue<Ack> acks = new PriorityQueue<>((a, b) -> Long.compare(a.time, b.time));
    private final Deque<Long> queueDepartures = new ArrayDeque<>();
    private final List<SentPacket> dropped = new ArrayList<>();
    long now;
    private long nextSend;
    private long bottleneckFree;
    private long pn;
    long inflight;
    long drops;
    /** Packet numbers the bottleneck drops whatever its queue (a loss the test places). */
    final java.util.Set<Long> forcedDrops = new java.util.HashSet<>();
    /**
     * The receiver's flow-control window, bytes (a test may change it between runs): the sender may send up to the
     * bytes delivered at the receiver's last credit plus this window, and the receiver credits anew (MAX_STREAM_DATA,
     * here at once with the ACK) each time half the window has been delivered since, so the credit comes in chunks
     * of half the window. When it, and not the congestion window, stops the sender, the sender is
     * application-limited, as a pacelab connection marks it (PacketSender: nothing to send though the window has room).
     */
    long flowControlWindow = Long.MAX_VALUE / 2;
    private long creditBase;
    private boolean appLimited;

    BbrPath(LongUnaryOperator bottleneckRate, long propagationRtt, int bufferPackets) {
        this(bottleneckRate, propagationRtt, bufferPackets, null);
    }

    /** With {@code queueOnset} not null: BBR as {@code --slow-start onset} runs it. */
    BbrPath(LongUnaryOperator bottleneckRate, long propagationRtt, int bufferPackets, QueueOnset queueOnset) {
        this.bbr = new BbrV3Controller(MDS, estimator::markAppLimited, new SplittableRandom(42), queueOnset);
        this.bottleneckRate = bottleneckRate;
        this.propagationDelay = t -> propagationRtt;
        this.bufferPackets = bufferPackets;
        transitions.add(new Transition(0, bbr.bbrState(), bbr.pacingGain(), bbr.cwndGain()));
    }

    void run(long until) {
        runUntil(until, null);
    }

    /** Runs until {@code until} or until the controller enters {@code stop}, whichever comes first. */
    void runUntil(long until, BbrState stop) {
        for (int guard = 0; guard < 10_000_000; guard++) {
            boolean cwndRoom = inflight + MDS <= bbr.congestionWindow();
            boolean credit = (pn + 1) * MDS <= creditBase + flowControlWindow;
            if (cwndRoom && !credit && !appLimited) {
                appLimited = true;
                bbr.onAppLimited(now, true);
                estimator.markAppLimited(inflight);
            }
            long sendAt = cwndRoom && credit ? Math.max(now, nextSend) : Long.MAX_VALUE;
            long ackAt = acks.isEmpty() ? Long.MAX_VALUE : acks.peek().time;
            long t = Math.min(sendAt, ackAt);
            if (t == Long.MAX_VALUE || t > until) {
                now = until;
                return;
            }
            now = t;
            if (ackAt <= sendAt) {
                receiveAck(acks.poll().packet);
            } else {
                send();
            }
            BbrState s = bbr.bbrState();
            if (s != transitions.get(transitions.size() - 1).state()) {
                transitions.add(new Transition(now, s, bbr.pacingGain(), bbr.cwndGain()));
                if (s == stop) {
                    return;
                }
            }
            if (s == BbrState.PROBE_RTT) {
                cwndDuringProbeRtt.add(bbr.congestionWindow());
            }
        }
        throw new AssertionError("simulation did not reach " + until);
    }

    private void send() {
        if (appLimited) {
            appLimited = false;
            bbr.onAppLimited(now, false);
        }
        SentPacket p = new SentPacket(PacketSpace.APPLICATION, pn++, now, now, MDS, true, true, List.of());
        estimator.onPacketSent(p, inflight, now);
        inflight += MDS;
        bbr.onPacketSent(now, p.info(), inflight);
        nextSend = Math.max(now, nextSend) + MDS * 1_000_000_000L / bbr.pacingRate();
        while (!queueDepartures.isEmpty() && queueDepartures.peekFirst() <= now) {
            queueDepartures.pollFirst();
        }
        if (queueDepartures.size() >= bufferPackets || forcedDrops.contains(p.packetNumber)) {
            dropped.add(p);
            drops++;
            return;
        }
        long departure = Math.max(now, bottleneckFree) + MDS * 1_000_000_000L / bottleneckRate.applyAsLong(now);
        bottleneckFree = departure;
        queueDepartures.addLast(departure);
        acks.add(new Ack(departure + propagationDelay.applyAsLong(departure), p));
    }

    private void receiveAck(SentPacket p) {
        rtt.onSample(now, now - p.timeSent, 0, 0, true);
        long prior = inflight;
        inflight -= MDS;
        List<PacketInfo> lost = new ArrayList<>();
        for (var it = dropped.iterator(); it.hasNext(); ) {
            SentPacket d = it.next();
            if (d.packetNumber + 3 <= p.packetNumber) {
                it.remove();
                inflight -= MDS;
                estimator.onPacketLost(d);
                lost.add(d.info());
                lostPackets.add(lost.get(lost.size() - 1));
                losses.add(new Loss(now, d.info(), estimator.lost()));
            }
        }
        estimator.onPacketAcked(p, now);
        if (estimator.delivered() - creditBase >= flowControlWindow / 2) {
            creditBase = estimator.delivered();
        }
        RateSample rs = estimator.generateRateSample(rtt.minRtt());
        samples.add(rs);
        if (!lost.isEmpty()) {
            bbr.onLoss(new LossEvent(now, lost, rtt.estimates(), prior, inflight, false, estimator.delivered(), estimator.lost()));
        }
        bbr.onAck(new AckEvent(now, List.of(p.info()), rtt.estimates(), prior, inflight, rs, appLimited,
                estimator.delivered()));
    }

    /** Time of the first transition into {@code state} at or after {@code from}, or -1. */
    long firstEntry(BbrState state, long from) {
        for (Transition t : transitions) {
            if (t.state() == state && t.time() >= from) {
                return t.time();
            }
        }
        return -1;
    }

    /** Time the state entered at {@code entry} was left, or -1. */
    long exitAfter(long entry) {
        for (Transition t : transitions) {
            if (t.time() > entry) {
                return t.time();
            }
        }
        return -1;
    }
}
