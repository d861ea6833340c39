package org.pacelab.net.spec;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses quantities written like tc writes them: rates {@code 40mbit} (bits/s: bit, kbit, mbit, gbit, tbit;
 * bytes/s as in tc: bps, kbps, mbps, gbps — so {@code 5mbps} is 40 Mbit/s), times {@code 20ms} (ns, us, ms, s),
 * sizes {@code 1540b} (b; kb/k, mb/m, gb/g are 1024-based as in tc; kib, mib, gib too).
 */
public final class Units {
    private Units() {}

    private static final Pattern NUMBER_UNIT = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)([a-zA-Z/%µ]*)");

    public static final String RATE_CHOICES = "a number with bit, kbit, mbit, gbit (bits/s) or bps, kbps, mbps, gbps "
            + "(bytes/s, as in tc), e.g. 40mbit";
    public static final String TIME_CHOICES = "a number with ns, us, ms or s, e.g. 20ms";
    public static final String SIZE_CHOICES = "a number with b, kb, mb (1024-based as in tc) or kib, mib, e.g. 1540b";

    /** Bits per second. */
    public static long parseRate(String where, String text) throws SpecException {
        Matcher m = match(text);
        if (m == null) throw bad(where, text, "rate", RATE_CHOICES);
        double v = Double.parseDouble(m.group(1));
        double factor = switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "bit", "bit/s" -> 1;
            case "kbit", "kbit/s" -> 1e3;
            case "mbit", "mbit/s" -> 1e6;
            case "gbit", "gbit/s" -> 1e9;
            case "tbit", "tbit/s" -> 1e12;
            case "bps" -> 8;
            case "kbps" -> 8e3;
            case "mbps" -> 8e6;
            case "gbps" -> 8e9;
            default -> -1;
        };
        if (factor < 0) throw bad(where, text, "rate", RATE_CHOICES);
        long bps = Math.round(v * factor);
        if (bps <= 0) throw new SpecException(where + ": rate '" + text + "' must be positive");
        return bps;
    }

    /** Nanoseconds. A bare 0 is allowed. */
    public static long parseDuration(String where, String text) throws SpecException {
        if (text.equals("0")) return 0;
        Matcher m = match(text);
        if (m == null) throw bad(where, text, "time", TIME_CHOICES);
        double v = Double.parseDouble(m.group(1));
        double factor = switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "ns" -> 1;
            case "us", "µs" -> 1e3;
            case "ms" -> 1e6;
            case "s" -> 1e9;
            default -> -1;
        };
        if (factor < 0) throw bad(where, text, "time", TIME_CHOICES);
        return Math.round(v * factor);
    }

    /** Bytes. */
    public static long parseSize(String where, String text) throws SpecException {
        Matcher m = match(text);
        if (m == null) throw bad(where, text, "size", SIZE_CHOICES);
        double v = Double.parseDouble(m.group(1));
        double factor = switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "b", "" -> 1;
            case "kb", "k", "kib" -> 1024;
            case "mb", "m", "mib" -> 1024 * 1024;
            case "gb", "g", "gib" -> 1024.0 * 1024 * 1024;
            default -> -1;
        };
        if (factor < 0) throw bad(where, text, "size", SIZE_CHOICES);
        return Math.round(v * factor);
    }

    /** A probability written as a percentage ({@code 1%}) or a fraction ({@code 0.01}). */
    public static double parseProbability(String where, String text) throws SpecException {
        String t = text.strip();
        boolean percent = t.endsWith("%");
        if (percent) t = t.substring(0, t.length() - 1);
        double v;
        try {
            v = Double.parseDouble(t);
        } catch (NumberFormatException e) {
            throw new SpecException(where + ": '" + text + "' is not a probability; write a percentage like 1% or a "
                    + "fraction like 0.01");
        }
        if (percent) v /= 100;
        if (!(v >= 0 && v <= 1)) {
            throw new SpecException(where + ": '" + text + "' is not a probability between 0 and 1 (0% to 100%)");
        }
        return v;
    }

    private static Matcher match(String text) {
        Matcher m = NUMBER_UNIT.matcher(text.strip());
        return m.matches() ? m : null;
    }

    private static SpecException bad(String where, String text, String what, String choices) {
        return new SpecException(where + ": '" + text + "' is not a " + what + "; use " + choices);
    }

    /** A rate written back in the most readable unit. */
    public static String formatRate(long bps) {
        if (bps % 1_000_000_000L == 0) return bps / 1_000_000_000L + "gbit";
        if (bps % 1_000_000L == 0) return bps / 1_000_000L + "mbit";
        if (bps % 1000 == 0) return bps / 1000 + "kbit";
        return bps + "bit";
    }

    /** A duration written back in the most readable unit. */
    public static String formatDuration(long ns) {
        if (ns == 0) return "0";
        if (ns % 1_000_000L == 0) return ns / 1_000_000L + "ms";
        if (ns % 1000 == 0) return ns / 1000 + "us";
        return ns + "ns";
    }
}
