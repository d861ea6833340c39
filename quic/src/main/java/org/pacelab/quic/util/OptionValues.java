package org.pacelab.quic.util;

import java.util.Map;

/** Reading an option's value from the command line's map, which may key it with or without its leading "--". */
public final class OptionValues {
    private OptionValues() {
    }

    /** The value of {@code option} (written "--name"), found under "--name" or "name"; null when absent. */
    public static String get(Map<String, String> options, String option) {
        String v = options.get(option);
        if (v == null) {
            v = options.get(option.substring(2));
        }
        return v;
    }
}
