package org.pacelab.lab.peer;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;

import org.pacelab.net.spec.SpecException;
import org.pacelab.net.spec.Units;

/**
 * An option a peer accepts in a scenario ({@code cc: cubic}): its name, a description of the valid values, and a
 * check that returns null for a valid value or one sentence (without the option's name) saying what is wrong.
 */
public record PeerOption(String name, String validValues, UnaryOperator<String> check) {
    /** Null when valid, else "option: sentence". */
    public String problem(String value) {
        String p = check.apply(value);
        return p == null ? null : name + ": " + p;
    }

    public static PeerOption oneOf(String name, String... values) {
        List<String> valid = Arrays.asList(values);
        return new PeerOption(name, String.join(", ", valid), v -> valid.contains(v.strip().toLowerCase(Locale.ROOT)) ? null
                : "'" + v + "' is not valid" + didYouMean(v, valid) + "; valid values: " + String.join(", ", valid));
    }

    public static PeerOption integer(String name, long min, long max) {
        return new PeerOption(name, "a whole number from " + min + " to " + max, v -> {
            try {
                long n = Long.parseLong(v.strip());
                return n >= min && n <= max ? null : n + " is out of range; valid: " + min + " to " + max;
            } catch (NumberFormatException e) {
                return "'" + v + "' is not a whole number; valid: " + min + " to " + max;
            }
        });
    }

    public static PeerOption size(String name) {
        return new PeerOption(name, Units.SIZE_CHOICES, v -> {
            try {
                return Units.parseSize(name, v) > 0 ? null : "must be at least 1 byte";
            } catch (SpecException e) {
                return "'" + v + "' is not a size; use " + Units.SIZE_CHOICES;
            }
        });
    }

    private static String didYouMean(String v, List<String> valid) {
        return org.pacelab.lab.scenario.Suggestions.didYouMean(v, valid);
    }
}
