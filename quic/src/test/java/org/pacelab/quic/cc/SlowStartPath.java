package org.pacelab.quic.cc;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.SplittableRandom;

import org.pacelab.quic.packet.PacketSpace;
import org.pacelab.quic.recovery.DeliveryRateEstimator;
import org.pacelab.quic.recovery.RttEstimator;
import org.pacelab.quic.recovery.SentPacket;

/**
 * A scripted path for the slow-start exit rules, in virtual time: a bulk sender whose loss-based controller
 * (NewReno or CUBIC with a {@link SlowStartExit}) is paced at gain × cwnd / srtt (2 in slow start, 1.25 after, as
 * pacelab's defaults; the controller's own rate when it gives one, {@link CongestionController#pacingRate}; the first
 * 10 packets unpaced) or not paced at all; a bottleneck of fixed rate with a
 * drop-tail buffer of {@code bufferPackets}; one-way delays; a receiver that acknowledges every second packet at
 * once and an odd one after 25 ms. Optional disturbances, each seeded: random extra delay on every ACK (RTT noise,
 * order kept), ACKs released only at multiples of a period (ACK compression), and a slow start of the sender's own
 * processing (a cold JVM: the first ACKs are handled late, so their RTT samples are inflated). Loss is declared
 * when a packet 3 numbers later is acknowledged (RFC 9002's packet threshold).
 */
final class SlowStartPath {
    static final long MS = 1_000_000L;
    static final int MDS = 1200;
    static final long ACK_DELAY = 25 * MS;

    /** A disturbance of the ACK path or of the sender. */
    record Noise(long rttJitter, long compressionPeriod, int coldAcks, long coldDelay) {
        static final Noise NONE = new Noise(0, 0, 0, 0);

        static Noise jitter(long maxExtraDelay) { return new Noise(maxExtraDelay, 0, 0, 0); }

        static Noise compression(long period) { return new Noise(0, period, 0, 0); }

        static Noise coldStart(int acks, long delay) { return new Noise(0, 0, acks, delay); }
    }

    private record Ack(long arrival, List<SentPacket> packets) {}

    final CongestionController cc;
    final SlowStartExit rule;
    final RttEstimator rtt = new RttEstimator();
    final DeliveryRateEstimator estimator = new DeliveryRateEstimator();
    private final long rate;
    private final long forwardDelay;
    private final long backDelay;
    private final int bufferPackets;
    private final boolean paced;
    private final Noise noise;
    private final SplittableRandom random = new SplittableRandom(7);

    private final Deque<Long> queueDepartures = new ArrayDeque<>();
    private final Deque<Ack> acks = new ArrayDeque<>();
    private final List<SentPacket> unacked = new ArrayList<>();
    private final List<SentPacket> dropped = new ArrayList<>();
    private final List<SentPacket> receivedUnacked = new ArrayList<>();
    private long receiverTimer = Long.MAX_VALUE;
    private long bottleneckFree;
    private long lastAckArrival;
    private long nextSend;
    private long pn;
    private int acksProcessed;
    long now;
    /** Time the bottleneck idled since the first packet: gaps between a departure and the next packet's arrival. */
    private final List<long[]> idleGaps = new ArrayList<>();
    long inflight;
    long drops;
    long delivered;

    /**
     * When slow start ended (-1: not yet), the largest window before, the ssthresh it left with, and the drops of
     * packets sent before it ended.
     */
    long exitTime = -1;
    /** When the rule's reduced-growth phase first began (onset-bdp's check; -1: never), and the drops of packets sent since. */
    long checkTime = -1;
    long dropsSinceCheck;
    long exitCwnd = -1;
    long exitSsthresh = -1;
    long dropsBeforeExit;
    boolean exitByLoss;

    /**
     * @param cubic           CUBIC (else NewReno)
     * @param rule            the slow-start exit rule under test
     * @param rateBytesPerSec bottleneck rate
     * @param rtt             base round-trip time, split evenly between the directions
     * @param bufferPackets   drop-tail buffer in front of the bottleneck
     * @param paced           whether the sender paces
     */
    SlowStartPath(boolean cubic, SlowStartExit rule, long rateBytesPerSec, long rtt, int bufferPackets, boolean paced,
                  Noise noise) {
        this.rule = rule;
        this.cc = cubic ? new CubicController(MDS, rule, CubicRollback.OFF, true) : new NewRenoController(MDS, rule);
        this.rate = rateBytesPerSec;
        this.forwardDelay = rtt / 2;
        this.backDelay = rtt - rtt / 2;
        this.bufferPackets = bufferPackets;
        this.paced = paced;
        this.noise = noise;
    }

    /** The path's BDP in bytes (rate × base RTT). */
    long bdp() {
        return rate * (forwardDelay + backDelay) / 1_000_000_000L;
    }

    /** What the path holds without a drop: BDP plus the buffer. */
    long capacity() {
        return bdp() + (long) bufferPackets * MDS;
    }

    /** How long the bottleneck idled between {@code from} and {@code to} (a gap counts as far as it lies in between). */
    long idleBetween(long from, long to) {
        long sum = 0;
        for (long[] g : idleGaps) {
            sum += Math.max(0, Math.min(g[1], to) - Math.max(g[0], from));
        }
        return sum;
    }

    /** Runs until {@code until}; records when slow start ended. */
    SlowStartPath run(long until) {
        for (int guard = 0; guard < 50_000_000; guard++) {
            long sendAt = inflight + MDS <= cc.congestionWindow() ? Math.max(now, nextSend) : Long.MAX_VALUE;
            long ackAt = acks.isEmpty() ? Long.MAX_VALUE : acks.peekFirst().arrival;
            long t = Math.min(Math.min(sendAt, ackAt), receiverTimer);
            if (t == Long.MAX_VALUE || t > until) {
                now = until;
                return this;
            }
            now = t;
            if (receiverTimer <= Math.min(sendAt, ackAt)) {
                flushAck(now);
            } else if (ackAt <= sendAt) {
                receiveAck(acks.pollFirst());
            } else {
                send();
            }
            if (checkTime < 0 && cc.state().equals("conservative_slow_start")) {
                checkTime = now;
            }
            if (exitTime < 0) {
                if (cc.inSlowStart()) {
                    exitCwnd = Math.max(exitCwnd, cc.congestionWindow());
                } else {
                    exitTime = now;
                    exitSsthresh = cc.slowStartThreshold();
                    exitByLoss = cc.state().equals("recovery");
                    if (!exitByLoss) {
                        exitCwnd = Math.max(exitCwnd, cc.slowStartThreshold());
                    }
                }
            }
        }
        throw new AssertionError("simulation did not reach " + until);
    }

    private void send() {
        SentPacket p = new SentPacket(PacketSpace.APPLICATION, pn++, now, now, MDS, true, true, List.of());
        estimator.onPacketSent(p, inflight, now);
        inflight += MDS;
        cc.onPacketSent(now, p.info(), inflight);
        unacked.add(p);
        if (paced && pn > 10 && rtt.hasSample()) {
            double gain = cc.inSlowStart() ? 2.0 : 1.25;
            long r = cc.pacingRate() > 0 ? cc.pacingRate() : (long) (gain * cc.congestionWindow() * 1e9 / rtt.smoothedRtt());
            nextSend = Math.max(now, nextSend) + MDS * 1_000_000_000L / Math.max(1, r);
        }
        while (!queueDepartures.isEmpty() && queueDepartures.peekFirst() <= now) {
            queueDepartures.pollFirst();
        }
        if (queueDepartures.size() >= bufferPackets) {
            dropped.add(p);
            drops++;
            if (exitTime < 0) {
                dropsBeforeExit++;
            }
            if (checkTime >= 0) {
                dropsSinceCheck++;
            }
            return;
        }
        if (bottleneckFree > 0 && now > bottleneckFree) {
            idleGaps.add(new long[] {bottleneckFree, now});
        }
        long departure = Math.max(now, bottleneckFree) + MDS * 1_000_000_000L / rate;
        bottleneckFree = departure;
        queueDepartures.addLast(departure);
        receive(p, departure + forwardDelay);
    }

    /** The receiver gets {@code p} at {@code at}: every second packet is acknowledged at once, an odd one 25 ms later. */
    private void receive(SentPacket p, long at) {
        // deliveries happen in order and are processed lazily: flush a pending odd ACK whose timer expired first
        if (receiverTimer <= at) {
            flushAck(receiverTimer);
        }
        receivedUnacked.add(p);
        if (receivedUnacked.size() >= 2) {
            flushAck(at);
        } else {
            receiverTimer = at + ACK_DELAY;
        }
    }

    private void flushAck(long at) {
        receiverTimer = Long.MAX_VALUE;
        if (receivedUnacked.isEmpty()) {
            return;
        }
        long arrival = at + backDelay;
        if (noise.rttJitter() > 0) {
            arrival += random.nextLong(noise.rttJitter() + 1);
        }
        if (noise.compressionPeriod() > 0) {
            long q = noise.compressionPeriod();
            arrival = (arrival + q - 1) / q * q;
        }
        if (acksProcessed + acks.size() < noise.coldAcks()) {
            arrival += noise.coldDelay();
        }
        arrival = Math.max(arrival, lastAckArrival);
        lastAckArrival = arrival;
        acks.addLast(new Ack(arrival, List.copyOf(receivedUnacked)));
        receivedUnacked.clear();
    }

    private void receiveAck(Ack a) {
        acksProcessed++;
        SentPacket largest = a.packets().get(a.packets().size() - 1);
        rtt.onSample(now, now - largest.timeSent, 0, 0, true);
        long prior = inflight;
        List<PacketInfo> acked = new ArrayList<>();
        for (SentPacket p : a.packets()) {
            if (unacked.remove(p)) {
                inflight -= MDS;
                delivered += MDS;
                estimator.onPacketAcked(p, now);
                acked.add(p.info());
            }
        }
        List<PacketInfo> lost = new ArrayList<>();
        for (var it = dropped.iterator(); it.hasNext(); ) {
            SentPacket d = it.next();
            if (d.packetNumber + 3 <= largest.packetNumber) {
                it.remove();
                unacked.remove(d);
                inflight -= MDS;
                estimator.onPacketLost(d);
                lost.add(d.info());
            }
        }
        RateSample rs = estimator.generateRateSample(rtt.minRtt());
        if (!lost.isEmpty()) {
            cc.onLoss(new LossEvent(now, lost, rtt.estimates(), prior, inflight, false, estimator.delivered(), estimator.lost()));
        }
        if (!acked.isEmpty()) {
            cc.onAck(new AckEvent(now, acked, rtt.estimates(), prior, inflight, rs, false, estimator.delivered()));
        }
    }
}
