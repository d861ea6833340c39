package org.pacelab.net.link;

import java.util.ArrayDeque;
import java.util.PriorityQueue;
import java.util.random.RandomGenerator;

/**
 * Holds each packet for a constant delay plus optional jitter. With reordering allowed, packets leave in order
 * of their own delivery times; otherwise a packet never leaves before the one ahead of it (its time is raised
 * to the previous delivery time), like a FIFO link whose delay varies.
 */
final class DelayLine {
    private record Held(Packet packet, long due, long seq) { }

    private final long delayNanos;
    private final Jitter jitter;
    private final boolean reorder;
    private final RandomGenerator rng;
    private final ArrayDeque<Held> fifo = new ArrayDeque<>();
    private final PriorityQueue<Held> heap = new PriorityQueue<>((a, b) ->
            a.due != b.due ? Long.compare(a.due, b.due) : Long.compare(a.seq, b.seq));
    private long lastDue = Long.MIN_VALUE;
    private long seq;
    private long bytes;

    DelayLine(long delayNanos, Jitter jitter, boolean reorder, RandomGenerator rng) {
        this.delayNanos = delayNanos;
        this.jitter = jitter;
        this.reorder = reorder;
        this.rng = rng;
    }

    void add(Packet p, long now) {
        bytes += p.size();
        long due = now + jitter.sample(delayNanos, rng);
        if (reorder) {
            heap.add(new Held(p, due, seq++));
        } else {
            due = Math.max(due, lastDue);
            lastDue = due;
            fifo.addLast(new Held(p, due, seq++));
        }
    }

    long nextDue() {
        Held h = reorder ? heap.peek() : fifo.peekFirst();
        return h == null ? Long.MAX_VALUE : h.due;
    }

    Packet remove() {
        Packet p = reorder ? heap.remove().packet : fifo.removeFirst().packet;
        bytes -= p.size();
        return p;
    }

    long bytes() { return bytes; }

    int packets() { return reorder ? heap.size() : fifo.size(); }
}
