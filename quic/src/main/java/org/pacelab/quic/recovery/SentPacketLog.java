package org.pacelab.quic.recovery;

import java.util.function.Consumer;

/**
 * The packets of one packet number space that await acknowledgment, indexed by packet number. Packet
 * numbers of a space increase by one per packet, so a ring indexed by {@code pn - base} gives O(1) lookup;
 * acknowledged or lost entries are cleared and the front advances past them.
 */
public final class SentPacketLog {
    private SentPacket[] ring = new SentPacket[256];
    /** Packet number stored at {@code ring[head]}. */
    private long base = -1;
    private int head;
    private int size;
    private int live;

    public void add(SentPacket p) {
        if (base < 0 || size == 0) {
            base = p.packetNumber;
            head = 0;
            size = 0;
        }
        long needed = p.packetNumber - base + 1;
        if (needed > ring.length) {
            grow((int) Math.min(Integer.MAX_VALUE - 8, Math.max(needed, ring.length * 2L)));
        }
        int idx = (int) ((head + (p.packetNumber - base)) % ring.length);
        ring[idx] = p;
        size = (int) Math.max(size, needed);
        live++;
    }

    private void grow(int capacity) {
        SentPacket[] n = new SentPacket[capacity];
        for (int i = 0; i < size; i++) {
            n[i] = ring[(head + i) % ring.length];
        }
        ring = n;
        head = 0;
    }

    public SentPacket get(long pn) {
        if (size == 0 || pn < base || pn >= base + size) {
            return null;
        }
        return ring[(int) ((head + (pn - base)) % ring.length)];
    }

    /** Removes and returns the packet, or null. */
    public SentPacket remove(long pn) {
        if (size == 0 || pn < base || pn >= base + size) {
            return null;
        }
        int idx = (int) ((head + (pn - base)) % ring.length);
        SentPacket p = ring[idx];
        if (p != null) {
            ring[idx] = null;
            live--;
            compact();
        }
        return p;
    }

    private void compact() {
        while (size > 0 && ring[head] == null) {
            head = (head + 1) % ring.length;
            base++;
            size--;
        }
    }

    /** Lowest packet number still held, or -1. */
    public long lowest() { return size == 0 ? -1 : base; }

    /** Highest packet number slot, or -1. */
    public long highest() { return size == 0 ? -1 : base + size - 1; }

    public boolean isEmpty() { return live == 0; }

    public int count() { return live; }

    /** Visits held packets in ascending packet-number order. */
    public void forEach(Consumer<SentPacket> action) {
        for (int i = 0; i < size; i++) {
            SentPacket p = ring[(head + i) % ring.length];
            if (p != null) {
                action.accept(p);
            }
        }
    }

    /** Visits held packets with packet number at most {@code maxPn}, ascending. */
    public void forEachUpTo(long maxPn, Consumer<SentPacket> action) {
        long n = Math.min(size, maxPn - base + 1);
        for (int i = 0; i < n; i++) {
            SentPacket p = ring[(head + i) % ring.length];
            if (p != null) {
                action.accept(p);
            }
        }
    }

    public void clear() {
        java.util.Arrays.fill(ring, null);
        size = 0;
        live = 0;
        base = -1;
        head = 0;
    }
}
