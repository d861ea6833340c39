package org.pacelab.sim.qdisc;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.random.RandomGenerator;

import org.pacelab.net.link.Packet;
import org.pacelab.sim.host.EmpiricalDistribution;
import org.pacelab.sim.host.QdiscConfig;

/**
 * Linux sch_fq with earliest-departure-time semantics (as in {@code net/sched/sch_fq.c}): one queue per flow,
 * ordered by send time (a packet without one may leave now); flows served by deficit round robin over a "new"
 * and an "old" list with {@code quantum} credit per round and {@code initial_quantum} for a new flow; a flow whose
 * head is not yet due is throttled until then (its {@code time_next_packet}, which never decreases, so a packet
 * enqueued with an earlier time than the throttle waits for it), and the qdisc's watchdog — programmed with fq's timer slack and
 * firing late by the kernel timer's latency — releases it. Send times beyond {@code now + horizon} are dropped
 * (horizon_drop), as are packets over the per-flow limit. Per-socket rate pacing (SO_MAX_PACING_RATE) is not
 * modelled: QUIC runtimes set send times instead.
 */
public final class FqQdisc implements Qdisc {
    private static final class Flow {
        final PriorityQueue<TimedPacket> queue = new PriorityQueue<>();
        long credit;
        /** fq's time_next_packet: a flow's packets never leave before the time it was last throttled until. */
        long timeNextPacket;
        long throttledUntil = Long.MAX_VALUE;
        boolean listed;
    }

    private final Nic nic;
    private final QdiscConfig.Fq config;
    private final QdiscWatchdog watchdog;
    private final Map<Integer, Flow> flows = new HashMap<>();
    private final ArrayDeque<Flow> newFlows = new ArrayDeque<>();
    private final ArrayDeque<Flow> oldFlows = new ArrayDeque<>();
    private final List<Flow> throttled = new ArrayList<>();
    private long seq;
    private int backlog;
    private long horizonDrops;
    private long flowLimitDrops;

    public FqQdisc(Nic nic, QdiscConfig.Fq config, EmpiricalDistribution timerLateness, RandomGenerator random) {
        this.nic = nic;
        this.config = config;
        this.watchdog = new QdiscWatchdog(config.timerSlackNanos(), timerLateness, random);
    }

    @Override
    public void enqueue(Packet packet, long txtime, long now) {
        long timeToSend = txtime <= 0 ? now : txtime;
        if (timeToSend > now + config.horizonNanos()) {
            horizonDrops++;
            return;
        }
        Flow f = flows.get(packet.flow());
        if (f == null) {
            f = new Flow();
            f.credit = config.initialQuantumBytes();
            flows.put(packet.flow(), f);
        }
        if (f.queue.size() >= config.flowLimit()) {
            flowLimitDrops++;
            return;
        }
        f.queue.add(new TimedPacket(packet, timeToSend, seq++));
        backlog++;
        if (!f.listed && f.throttledUntil == Long.MAX_VALUE) {
            f.credit = Math.max(f.credit, config.quantumBytes());
            newFlows.addLast(f);
            f.listed = true;
        }
        dequeue(now);
    }

    /** fq_dequeue called until it returns nothing, then the watchdog is programmed. */
    private void dequeue(long now) {
        for (int i = 0; i < throttled.size(); ) {
            Flow f = throttled.get(i);
            if (f.throttledUntil <= now) {
                throttled.remove(i);
                f.throttledUntil = Long.MAX_VALUE;
                oldFlows.addLast(f);
                f.listed = true;
            } else {
                i++;
            }
        }
        while (true) {
            ArrayDeque<Flow> list = !newFlows.isEmpty() ? newFlows : oldFlows;
            Flow f = list.peekFirst();
            if (f == null) {
                break;
            }
            if (f.credit <= 0) {
                f.credit += config.quantumBytes();
                list.pollFirst();
                oldFlows.addLast(f);
                continue;
            }
            TimedPacket head = f.queue.peek();
            if (head == null) {
                list.pollFirst();
                if (list == newFlows && !oldFlows.isEmpty()) {
                    oldFlows.addLast(f);
                } else {
                    f.listed = false;
                }
                continue;
            }
            long timeNext = Math.max(head.sendTime(), f.timeNextPacket);
            if (timeNext > now) {
                list.pollFirst();
                f.listed = false;
                f.timeNextPacket = timeNext;
                f.throttledUntil = timeNext;
                throttled.add(f);
                continue;
            }
            f.queue.poll();
            backlog--;
            f.credit -= head.packet().size();
            nic.transmit(head.packet(), now);
        }
        long next = Long.MAX_VALUE;
        for (Flow f : throttled) {
            next = Math.min(next, f.throttledUntil);
        }
        watchdog.schedule(next);
    }

    @Override
    public long nextEventTime() {
        return watchdog.firesAt();
    }

    @Override
    public void fire(long now) {
        watchdog.cancel();
        dequeue(now);
    }

    @Override
    public Map<String, Long> drops() {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("fq_horizon", horizonDrops);
        m.put("fq_flow_limit", flowLimitDrops);
        return m;
    }

    @Override
    public int backlog() {
        return backlog;
    }
}
