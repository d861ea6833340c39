package org.pacelab.net.link;

import java.util.ArrayDeque;

/**
 * The server's access link: serialises what the server emits at line rate, so a GSO burst or a sendmmsg batch
 * appears on the tap as back-to-back frames (at 1 Gbit/s, 1538-byte frames 12.3 us apart) rather than as one
 * timestamp. Each packet is charged its size plus the Ethernet framing overhead (preamble and start delimiter
 * 8, header 14, FCS 4, inter-frame gap 12: 38 bytes by default). Unbounded: the host's socket buffer, not the
 * wire, is where a real sender would block.
 */
public final class WireModel {
    public static final int ETHERNET_FRAMING_BYTES = 38;
    private record InFlight(Packet packet, long done) { }

    private final ByteTime byteTime;
    private final int framingBytes;
    private final ArrayDeque<InFlight> fifo = new ArrayDeque<>();
    private long busyUntil = Long.MIN_VALUE;

    public WireModel(long bitsPerSecond, int framingBytes) {
        this.byteTime = new ByteTime(bitsPerSecond);
        this.framingBytes = framingBytes;
    }

    /** The sender emits {@code p} at {@code now}; it is on the wire until {@link #nextDone()} says otherwise. */
    public void add(Packet p, long now) {
        long start = Math.max(now, busyUntil);
        if (start > busyUntil) byteTime.reset();
        busyUntil = start + byteTime.nanosFor(p.size() + (long) framingBytes);
        fifo.addLast(new InFlight(p, busyUntil));
    }

    /** When the packet at the head finishes serializing, or {@link Long#MAX_VALUE} when the wire is idle. */
    public long nextDone() { InFlight f = fifo.peekFirst(); return f == null ? Long.MAX_VALUE : f.done; }

    /** Takes the packet at the head (call when {@link #nextDone()} is due). */
    public Packet remove() { return fifo.removeFirst().packet; }

    public int packets() { return fifo.size(); }
}
