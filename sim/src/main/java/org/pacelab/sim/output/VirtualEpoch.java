package org.pacelab.sim.output;

/**
 * The fixed wall-clock instant that virtual time 0 stands for in every output (tap timestamps, qlog
 * {@code reference_time}, the event log's epoch), so no real clock reading reaches a simulated run's files.
 * 2026-01-01T00:00:00Z.
 */
public final class VirtualEpoch {
    /** ns since the Unix epoch of virtual time 0. */
    public static final long EPOCH_NANOS = 1_767_225_600_000_000_000L;

    private VirtualEpoch() {}

    /** Wall-clock ns since the Unix epoch of virtual time {@code t}. */
    public static long toEpochNanos(long t) {
        return EPOCH_NANOS + t;
    }

    /** The epoch in ms, as qlog's reference_time. */
    public static double epochMillis() {
        return EPOCH_NANOS / 1_000_000L;
    }
}
