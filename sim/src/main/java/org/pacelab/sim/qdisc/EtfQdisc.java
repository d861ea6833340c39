package org.pacelab.sim.qdisc;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.random.RandomGenerator;

import org.pacelab.net.link.Packet;
import org.pacelab.sim.host.EmpiricalDistribution;

/**
 * Linux sch_etf (earliest TxTime first) without hardware offload, as in {@code net/sched/sch_etf.c}: packets are
 * kept sorted by send time; a watchdog is programmed for {@code head.txtime - delta}; when it fires (late by the
 * kernel timer's latency), every packet whose send time has already passed is dropped ("expired") and every
 * packet within {@code [now, now + delta]} of its send time goes to the NIC at once — up to {@code delta} early.
 * At enqueue, a send time before now or before the last dequeued one is invalid and dropped, like
 * {@code is_packet_valid()}.
 */
public final class EtfQdisc implements Qdisc {
    private final Nic nic;
    private final long delta;
    private final QdiscWatchdog watchdog;
    private final PriorityQueue<TimedPacket> queue = new PriorityQueue<>();
    private long seq;
    private long last = Long.MIN_VALUE;
    private long expired;
    private long invalid;

    public EtfQdisc(Nic nic, long deltaNanos, EmpiricalDistribution timerLateness, RandomGenerator random) {
        this.nic = nic;
        this.delta = deltaNanos;
        this.watchdog = new QdiscWatchdog(0, timerLateness, random);
    }

    @Override
    public void enqueue(Packet packet, long txtime, long now) {
        if (txtime < now || txtime < last) {
            invalid++;
            return;
        }
        queue.add(new TimedPacket(packet, txtime, seq++));
        dequeueDue(now);
    }

    /** The kernel's dequeue loop at {@code now}: drop expired heads, send those within delta, re-arm. */
    private void dequeueDue(long now) {
        while (!queue.isEmpty()) {
            TimedPacket head = queue.peek();
            if (head.sendTime() < now) {
                queue.poll();
                expired++;
                continue;
            }
            if (head.sendTime() - delta <= now) {
                queue.poll();
                last = head.sendTime();
                nic.transmit(head.packet(), now);
                continue;
            }
            watchdog.schedule(head.sendTime() - delta);
            return;
        }
        watchdog.cancel();
    }

    @Override
    public long nextEventTime() {
        return watchdog.firesAt();
    }

    @Override
    public void fire(long now) {
        watchdog.cancel();
        dequeueDue(now);
    }

    @Override
    public Map<String, Long> drops() {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("etf_expired", expired);
        m.put("etf_invalid", invalid);
        return m;
    }

    @Override
    public int backlog() {
        return queue.size();
    }
}
