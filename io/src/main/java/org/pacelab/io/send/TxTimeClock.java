package org.pacelab.io.send;

import java.util.Locale;

import org.pacelab.net.sys.Libc;

/**
 * The clock of SO_TXTIME send times ({@code --txtime-clock}). fq compares them with CLOCK_MONOTONIC; etf with the
 * clock it was created with (its {@code clockid}, usually CLOCK_TAI). The runtime's times are
 * {@link System#nanoTime()}, which on Linux is CLOCK_MONOTONIC.
 */
public enum TxTimeClock {
    MONOTONIC(Libc.CLOCK_MONOTONIC, "CLOCK_MONOTONIC"),
    TAI(Libc.CLOCK_TAI, "CLOCK_TAI");

    /** Re-read the offset to System.nanoTime() this often: TAI follows steps of the wall clock, MONOTONIC does not. */
    private static final long OFFSET_REFRESH_NANOS = 100_000_000L;

    private final int clockId;
    private final String tcName;

    TxTimeClock(int clockId, String tcName) {
        this.clockId = clockId;
        this.tcName = tcName;
    }

    /** The clockid_t of this clock. */
    public int clockId() { return clockId; }

    /** How tc prints this clock in an etf qdisc's {@code clockid} (without the CLOCK_ prefix: TAI). */
    public String tcName() { return tcName.substring("CLOCK_".length()); }

    public String optionValue() { return name().toLowerCase(Locale.ROOT); }

    public static TxTimeClock parse(String value) {
        return switch (value == null ? "" : value.trim().toLowerCase(Locale.ROOT)) {
            case "monotonic" -> MONOTONIC;
            case "tai" -> TAI;
            default -> throw new IllegalArgumentException(SendConfig.TXTIME_CLOCK + ": '" + value + "' is not a clock; "
                    + "valid values are monotonic, tai.");
        };
    }

    /** Converts System.nanoTime() values to this clock (single-threaded). */
    public Converter converter() {
        return new Converter(this);
    }

    /** Turns System.nanoTime() values into times of one clock, re-measuring the offset now and then. */
    public static final class Converter {
        private final TxTimeClock clock;
        private long offset;
        private long measuredAt = Long.MIN_VALUE;

        private Converter(TxTimeClock clock) {
            this.clock = clock;
        }

        /** {@code nanoTime} (a System.nanoTime() value) on this clock. */
        public long toClock(long nanoTime, long now) {
            if (clock == MONOTONIC) {
                return nanoTime;
            }
            if (now - measuredAt > OFFSET_REFRESH_NANOS || measuredAt == Long.MIN_VALUE) {
                offset = measureOffset(clock.clockId);
                measuredAt = now;
            }
            return nanoTime + offset;
        }

        /** clock − System.nanoTime(), taking the reading with the narrowest bracket of three. */
        static long measureOffset(int clockId) {
            long best = Long.MAX_VALUE;
            long offset = 0;
            for (int i = 0; i < 3; i++) {
                long before = System.nanoTime();
                long c = Libc.clockGettime(clockId);
                long after = System.nanoTime();
                if (after - before < best) {
                    best = after - before;
                    offset = c - (before + (after - before) / 2);
                }
            }
            return offset;
        }
    }
}
