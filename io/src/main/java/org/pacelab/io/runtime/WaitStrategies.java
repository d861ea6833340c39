package org.pacelab.io.runtime;

import java.util.List;
import java.util.Locale;

/** The send strategies' waits by command-line name. */
public final class WaitStrategies {
    public static final List<String> NAMES = List.of("park", "park-tight", "hybrid", "spin");

    /** How long before a release time {@code hybrid} stops parking and spins. */
    public static final long DEFAULT_SPIN_NANOS = 60_000L;

    private WaitStrategies() {}

    /** Parses {@code --send}; an unknown name gets one sentence listing the valid ones. */
    public static WaitStrategy parse(String name) {
        String n = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
        return switch (n) {
            case "park" -> new ParkWait();
            case "park-tight" -> new ParkTightWait();
            case "hybrid" -> new HybridWait(DEFAULT_SPIN_NANOS);
            case "spin" -> new SpinWait();
            default -> throw new IllegalArgumentException("--send: '" + name + "' is not a send strategy; valid: "
                    + String.join(", ", NAMES));
        };
    }
}
