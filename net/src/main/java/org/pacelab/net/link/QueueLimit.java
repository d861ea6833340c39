package org.pacelab.net.link;

/**
 * A drop-tail limit: a number of packets or of bytes. A packet is admitted if, with it, the count stays within
 * the limit (pfifo: packets &lt; limit before admission; bfifo: bytes + size &lt;= limit).
 */
public record QueueLimit(long packets, long bytes) {
    public static final QueueLimit UNLIMITED = new QueueLimit(Long.MAX_VALUE, Long.MAX_VALUE);

    public static QueueLimit ofPackets(long n) {
        if (n <= 0) throw new IllegalArgumentException("queue limit must be at least 1 packet");
        return new QueueLimit(n, Long.MAX_VALUE);
    }

    public static QueueLimit ofBytes(long n) {
        if (n <= 0) throw new IllegalArgumentException("queue limit must be at least 1 byte");
        return new QueueLimit(Long.MAX_VALUE, n);
    }

    public boolean admits(long heldPackets, long heldBytes, int size) {
        return heldPackets < packets && heldBytes + size <= bytes;
    }

    @Override
    public String toString() {
        if (packets == Long.MAX_VALUE && bytes == Long.MAX_VALUE) return "unlimited";
        return packets != Long.MAX_VALUE ? packets + "p" : bytes + "b";
    }
}
