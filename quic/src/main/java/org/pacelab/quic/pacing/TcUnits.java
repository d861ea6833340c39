package org.pacelab.quic.pacing;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Rates and sizes written like Linux tc(8) writes them, for pacing options.
 *
 * <p>Rates: a number followed by {@code bit}, {@code kbit}, {@code mbit}, {@code gbit}, {@code tbit} (bits per
 * second, SI prefixes) or {@code bps}, {@code kbps}, {@code mbps}, {@code gbps}, {@code tbps} (bytes per
 * second, SI prefixes); IEC prefixes ({@code kibit}, {@code mibps}, ...) use powers of 1024; a bare number
 * is bits per second, as in tc. Sizes: a bare number or {@code b} (bytes), {@code k}/{@code kb}/{@code kib},
 * {@code m}/{@code mb}/{@code mib}, {@code g}/{@code gb}/{@code gib} (powers of 1024, as tc's sizes), or
 * {@code p} (packets of the maximum datagram size, a pacelab extension). Case is ignored.
 */
public final class TcUnits {
    private static final Pattern NUMBER_UNIT = Pattern.compile("\\s*([0-9]+(?:\\.[0-9]+)?)\\s*([a-z]*)\\s*");

    private TcUnits() {}

    /** A size: bytes, or packets when {@link #packets} is true. */
    public record Size(long value, boolean packets) {
        /** The size in bytes for a given maximum datagram size. */
        public long bytes(int maxDatagramSize) {
            return packets ? value * maxDatagramSize : value;
        }

        /** The size written back in the form it was given ({@code 10p}, {@code 1200b}). */
        public String text() {
            return packets ? value + "p" : value + "b";
        }
    }

    /**
     * Parses a rate into bytes per second.
     *
     * @param option the option name, for the error sentence
     */
    public static long parseRate(String option, String text) {
        Matcher m = NUMBER_UNIT.matcher(text == null ? "" : text.toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException(option + ": '" + text + "' is not a rate; write it like tc, e.g. "
                    + "40mbit, 5mbps (bytes/s), 800kbit or 0 for none.");
        }
        double number = Double.parseDouble(m.group(1));
        String unit = m.group(2);
        boolean bytes = unit.endsWith("bps");
        String prefix;
        if (bytes) {
            prefix = unit.substring(0, unit.length() - 3);
        } else if (unit.endsWith("bit")) {
            prefix = unit.substring(0, unit.length() - 3);
        } else if (unit.isEmpty()) {
            prefix = "";
        } else {
            throw new IllegalArgumentException(option + ": '" + text + "' has an unknown rate unit '" + unit
                    + "'; valid units are bit, kbit, mbit, gbit, tbit, bps, kbps, mbps, gbps, tbps (and kibit, mibps, ...).");
        }
        double multiplier = prefixMultiplier(prefix, 1000);
        if (multiplier < 0) {
            throw new IllegalArgumentException(option + ": '" + text + "' has an unknown rate unit '" + unit
                    + "'; valid units are bit, kbit, mbit, gbit, tbit, bps, kbps, mbps, gbps, tbps (and kibit, mibps, ...).");
        }
        double bytesPerSecond = number * multiplier / (bytes ? 1 : 8);
        if (bytesPerSecond > Long.MAX_VALUE / 2) {
            throw new IllegalArgumentException(option + ": '" + text + "' is too large a rate.");
        }
        return (long) bytesPerSecond;
    }

    /** Parses a size (bytes or packets). */
    public static Size parseSize(String option, String text) {
        Matcher m = NUMBER_UNIT.matcher(text == null ? "" : text.toLowerCase(Locale.ROOT));
        String hint = "; write bytes (1200, 1200b), KiB (64k, 64kb, 64KiB), MiB (1mb) or packets (10p).";
        if (!m.matches() || m.group(1).contains(".")) {
            throw new IllegalArgumentException(option + ": '" + text + "' is not a whole size" + hint);
        }
        long number = Long.parseLong(m.group(1));
        String unit = m.group(2);
        long multiplier;
        switch (unit) {
            case "", "b" -> multiplier = 1;
            case "p" -> {
                return new Size(number, true);
            }
            case "k", "kb", "kib" -> multiplier = 1024;
            case "m", "mb", "mib" -> multiplier = 1024 * 1024;
            case "g", "gb", "gib" -> multiplier = 1024L * 1024 * 1024;
            default -> throw new IllegalArgumentException(option + ": '" + text + "' has an unknown size unit '"
                    + unit + "'" + hint);
        }
        if (number > Long.MAX_VALUE / multiplier) {
            throw new IllegalArgumentException(option + ": '" + text + "' is too large a size.");
        }
        return new Size(number * multiplier, false);
    }

    private static double prefixMultiplier(String prefix, double si) {
        return switch (prefix) {
            case "" -> 1;
            case "k" -> si;
            case "m" -> si * si;
            case "g" -> si * si * si;
            case "t" -> si * si * si * si;
            case "ki" -> 1024.0;
            case "mi" -> 1024.0 * 1024;
            case "gi" -> 1024.0 * 1024 * 1024;
            case "ti" -> 1024.0 * 1024 * 1024 * 1024;
            default -> -1;
        };
    }

    /** A rate in bytes/s written as tc would accept it (bit/s when exact, else bytes/s). */
    public static String formatRate(long bytesPerSecond) {
        return bytesPerSecond + "bps";
    }
}
