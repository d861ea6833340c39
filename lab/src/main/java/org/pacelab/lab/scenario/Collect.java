package org.pacelab.lab.scenario;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * What each run collects and keeps. The tap, key log, qlog and emulator event log feed the analysis; the
 * per-packet table goes into the results store; {@code keep} says which raw files stay on disk afterwards.
 */
public record Collect(boolean tap, boolean qlog, boolean keylog, boolean events, boolean packets, Keep keep) {
    public static final Collect DEFAULT = new Collect(true, true, true, true, true, Keep.ALL);
    public static final List<String> KEYS = List.of("tap", "qlog", "keylog", "events", "packets", "keep");

    /** Which runs keep their raw files (captures, logs, qlogs) after they were analysed and stored. */
    public enum Keep {
        ALL, FAILED, NONE;

        public String word() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static List<String> words() {
            return Arrays.stream(values()).map(Keep::word).toList();
        }
    }
}
