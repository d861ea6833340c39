package org.pacelab.sim.qdisc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.pacelab.net.link.Packet;
import org.pacelab.sim.host.EmpiricalDistribution;
import org.pacelab.sim.host.QdiscConfig;

/** The qdisc models, driven by hand: what leaves when, and what is dropped. */
class QdiscTest {
    private record Sent(long id, long time) {}

    private static final class Recorder implements Nic {
        final List<Sent> sent = new ArrayList<>();

        @Override
        public void transmit(Packet packet, long time) {
            sent.add(new Sent(packet.id(), time));
        }
    }

    private static Packet packet(long id, int flow) {
        return new Packet(id, flow, 1000, null);
    }

    /** Runs the qdisc's watchdog until it has nothing left (as the engine would). */
    private static void drain(Qdisc q) {
        while (q.nextEventTime() != Long.MAX_VALUE) {
            q.fire(q.nextEventTime());
        }
    }

    @Test
    void pfifoSendsAtOnceAndIgnoresSendTimes() {
        Recorder nic = new Recorder();
        PfifoQdisc q = new PfifoQdisc(nic);
        q.enqueue(packet(1, 1), 5_000, 100);
        q.enqueue(packet(2, 1), 0, 100);
        assertEquals(List.of(new Sent(1, 100), new Sent(2, 100)), nic.sent);
    }

    @Test
    void fqHoldsEachPacketUntilItsSendTimePlusTimerSlackAndLateness() {
        Recorder nic = new Recorder();
        FqQdisc q = new FqQdisc(nic, new QdiscConfig.Fq(3028, 15140, 10_000_000_000L, 100, 10_000),
                EmpiricalDistribution.constant(2_000), new SplittableRandom(1));
        q.enqueue(packet(1, 1), 0, 1_000);               // no send time: now
        q.enqueue(packet(2, 1), 50_000, 1_000);          // paced
        q.enqueue(packet(3, 1), 50_000, 1_000);          // same send time: leaves with it
        q.enqueue(packet(4, 1), 200_000, 1_000);
        assertEquals(List.of(new Sent(1, 1_000)), nic.sent);
        drain(q);
        assertEquals(List.of(new Sent(1, 1_000), new Sent(2, 62_000), new Sent(3, 62_000), new Sent(4, 212_000)), nic.sent);
    }

    @Test
    void fqOrdersAFlowBySendTimeAndDropsBeyondHorizonAndFlowLimit() {
        Recorder nic = new Recorder();
        FqQdisc q = new FqQdisc(nic, new QdiscConfig.Fq(3028, 15140, 1_000_000, 2, 0),
                EmpiricalDistribution.constant(0), new SplittableRandom(1));
        q.enqueue(packet(1, 1), 500_000, 0);             // the flow is throttled until 500 µs
        q.enqueue(packet(2, 1), 300_000, 0);             // earlier, but the throttled flow waits (time_next_packet)
        q.enqueue(packet(3, 1), 400_000, 0);             // over the flow limit of 2
        q.enqueue(packet(4, 2), 2_000_000, 0);           // beyond the 1 ms horizon
        drain(q);
        assertEquals(List.of(new Sent(2, 500_000), new Sent(1, 500_000)), nic.sent, "in send-time order");
        q.enqueue(packet(5, 1), 450_000, 600_000);       // a flow never goes back before its time_next_packet
        q.enqueue(packet(6, 1), 0, 600_000);
        assertEquals(List.of(new Sent(2, 500_000), new Sent(1, 500_000), new Sent(5, 600_000), new Sent(6, 600_000)), nic.sent);
        assertEquals(1L, q.drops().get("fq_flow_limit"));
        assertEquals(1L, q.drops().get("fq_horizon"));
    }

    @Test
    void fqServesDueFlowsRoundRobinByQuantum() {
        Recorder nic = new Recorder();
        FqQdisc q = new FqQdisc(nic, new QdiscConfig.Fq(2000, 2000, 10_000_000_000L, 100, 0),
                EmpiricalDistribution.constant(0), new SplittableRandom(1));
        for (int i = 0; i < 4; i++) {
            q.enqueue(packet(10 + i, 1), 1_000, 0);
            q.enqueue(packet(20 + i, 2), 1_000, 0);
        }
        drain(q);
        List<Long> order = nic.sent.stream().map(Sent::id).toList();
        assertEquals(List.of(10L, 11L, 20L, 21L, 12L, 13L, 22L, 23L), order, "two 1000-byte packets per 2000-byte quantum");
    }

    @Test
    void etfReleasesDeltaEarlyAndDropsWhatExpiresBeforeTheWatchdogFires() {
        Recorder nic = new Recorder();
        EtfQdisc q = new EtfQdisc(nic, 300_000, EmpiricalDistribution.constant(50_000), new SplittableRandom(1));
        q.enqueue(packet(1, 1), 1_000_000, 0);
        q.enqueue(packet(2, 1), 1_100_000, 0);
        drain(q);
        // the watchdog for 1 ms − 300 µs fires 50 µs late at 750 µs; packet 2's is 800 µs, so 850 µs
        assertEquals(List.of(new Sent(1, 750_000), new Sent(2, 850_000)), nic.sent);

        Recorder late = new Recorder();
        EtfQdisc tight = new EtfQdisc(late, 1_000, EmpiricalDistribution.constant(50_000), new SplittableRandom(1));
        tight.enqueue(packet(3, 1), 1_000_000, 0);
        drain(tight);
        assertEquals(List.of(), late.sent, "the watchdog fired 49 us after the send time");
        assertEquals(1L, tight.drops().get("etf_expired"));
    }

    @Test
    void etfRefusesSendTimesInThePastOrBeforeTheLastOneSent() {
        Recorder nic = new Recorder();
        EtfQdisc q = new EtfQdisc(nic, 100_000, EmpiricalDistribution.constant(0), new SplittableRandom(1));
        q.enqueue(packet(1, 1), 500, 1_000);             // already past
        q.enqueue(packet(2, 1), 50_000, 0);              // within delta: sent now
        q.enqueue(packet(3, 1), 40_000, 10);             // before the last sent send time
        assertEquals(List.of(new Sent(2, 0)), nic.sent);
        assertEquals(2L, q.drops().get("etf_invalid"));
    }
}
