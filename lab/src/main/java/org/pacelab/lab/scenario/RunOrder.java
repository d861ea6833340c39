package org.pacelab.lab.scenario;

import java.util.List;
import java.util.Locale;

/**
 * The order in which a campaign runs its repetitions ({@code order:} in a scenario, {@code pacelab run --order}).
 * {@code grouped} (the default) runs every repetition of one configuration before the next configuration;
 * {@code interleaved} runs repetition 1 of every configuration, then repetition 2 of every configuration, and so on,
 * so that configurations compared on a real-time testbed see the same drift of a shared host (load, CPU frequency,
 * a VM's steal time) rather than each its own stretch of it. Simulated runs do not depend on the order.
 */
public enum RunOrder {
    GROUPED, INTERLEAVED;

    public String word() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static List<String> words() {
        return List.of("grouped", "interleaved");
    }

    /** The order with this name, or null. */
    public static RunOrder parse(String text) {
        for (RunOrder o : values()) {
            if (o.word().equalsIgnoreCase(text.strip())) {
                return o;
            }
        }
        return null;
    }

    /** One sentence for a word that names no order, with the valid ones. */
    public static String invalid(String where, String text) {
        return where + ": '" + text + "' is not a run order" + Suggestions.didYouMean(text, words())
                + "; valid values: grouped (every repetition of one configuration, then the next; the default), "
                + "interleaved (repetition 1 of every configuration, then repetition 2, ...)";
    }
}
