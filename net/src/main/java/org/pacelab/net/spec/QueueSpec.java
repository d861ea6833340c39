package org.pacelab.net.spec;

/** A queue size as written: packets, bytes, a multiple of the bandwidth-delay product, or unlimited. */
public record QueueSpec(Kind kind, double value) {
    public enum Kind { UNLIMITED, PACKETS, BYTES, BDP }

    public static final QueueSpec UNLIMITED = new QueueSpec(Kind.UNLIMITED, 0);

    public static QueueSpec packets(long n) { return new QueueSpec(Kind.PACKETS, n); }

    @Override
    public String toString() {
        return switch (kind) {
            case UNLIMITED -> "unlimited";
            case PACKETS -> (long) value + "p";
            case BYTES -> (long) value + "b";
            case BDP -> value + "bdp";
        };
    }
}
