package org.pacelab.net.spec;

import java.util.Locale;
import org.pacelab.net.link.Jitter;

/**
 * Reads a direction spec: whitespace-separated {@code key=value} fields applied over a base (a preset's
 * direction). Fields:
 * <pre>
 *   rate=RATE|unlimited      fixed rate (40mbit, 5mbps = 5 MB/s as in tc); clears trace
 *   burst=SIZE|0             token-bucket depth (tbf burst); 0 = serializing link
 *   trace=FILE               Mahimahi trace (1500-byte opportunities); clears rate
 *   trace-repeat=on|off      whether the trace repeats (default on)
 *   overhead=SIZE            bytes the rate limiter charges per packet on top of the IP size
 *   queue=Np|SIZE|Xbdp|unlimited   drop-tail limit in packets, bytes, or bandwidth-delay products
 *   shared=on|off            delay-line packets count against the queue limit (tbf with a netem child)
 *   delay=TIME               constant one-way delay
 *   jitter=none|normal:cov=X|normal:sd=TIME|uniform:TIME   (uniform:±2ms also accepted)
 *   reorder=on|off           whether jitter may reorder packets
 *   loss=P|ge:p=P,r=P[,good=P][,bad=P]   Bernoulli or Gilbert-Elliott (good/bad: loss probability per state,
 *                            defaults 0 and 1); either may end in ,burst=N: at most N losses in a row
 *   corrupt=P[,burst=N][,within=SIZE][,change=bit|byte]   corruption probability; at most N in a row; the changed
 *                            byte lies in the first SIZE bytes; one bit flipped (default) or the byte replaced
 *   duplicate=P              probability (1% or 0.01)
 *   blackhole=OPEN/CLOSED[,repeat=N]   open for OPEN, then every packet lost for CLOSED, N times (default 1),
 *                            from the direction's first packet
 *   drops=LIST               1-based positions of packets to drop: 2,3,4 or 2-7 (at most 100000 in all, up to 2^40)
 *   wire=RATE|off            the server's access-link wire model
 *   wire-overhead=SIZE       per-frame wire overhead (Ethernet 38b)
 *   rtt=TIME                 RTT for bdp sizes (default: sum of both directions' delays)
 * </pre>
 */
public final class LinkSpecParser {
    private LinkSpecParser() {}

    public static final String KEYS = "rate, burst, trace, trace-repeat, overhead, queue, shared, delay, jitter, "
            + "reorder, loss, corrupt, duplicate, wire, wire-overhead, rtt, blackhole, drops";

    /** Applies {@code text} to {@code base}; {@code where} names the option for errors (e.g. "--down"). */
    public static DirectionSpec apply(String where, DirectionSpec base, String text) throws SpecException {
        DirectionSpec.Builder b = base.toBuilder();
        if (text == null || text.isBlank()) return base;
        for (String token : text.strip().split("\\s+")) {
            int eq = token.indexOf('=');
            if (eq <= 0 || eq == token.length() - 1) {
                throw new SpecException(where + ": '" + token + "' is not a key=value field; valid keys: " + KEYS);
            }
            String key = token.substring(0, eq).toLowerCase(Locale.ROOT);
            String value = token.substring(eq + 1);
            String at = where + " " + key;
            switch (key) {
                case "rate" -> {
                    b.trace = null;
                    b.rateBps = value.equalsIgnoreCase("unlimited") ? 0 : Units.parseRate(at, value);
                    if (b.rateBps == 0) b.burstBytes = 0;
                }
                case "burst" -> b.burstBytes = Units.parseSize(at, value);
                case "trace" -> { b.trace = value; b.rateBps = 0; b.burstBytes = 0; }
                case "trace-repeat" -> b.traceRepeat = onOff(at, value);
                case "overhead" -> b.overheadBytes = (int) Units.parseSize(at, value);
                case "queue" -> b.queue = parseQueue(at, value);
                case "shared" -> b.shared = onOff(at, value);
                case "delay" -> b.delayNs = Units.parseDuration(at, value);
                case "jitter" -> b.jitter = parseJitter(at, value);
                case "reorder" -> b.reorder = onOff(at, value);
                case "loss" -> b.loss = parseLoss(at, value);
                case "corrupt" -> b.corrupt = parseCorrupt(at, value);
                case "duplicate" -> b.duplicate = Units.parseProbability(at, value);
                case "wire" -> b.wireBps = value.equalsIgnoreCase("off") ? 0 : Units.parseRate(at, value);
                case "wire-overhead" -> b.wireOverheadBytes = (int) Units.parseSize(at, value);
                case "rtt" -> b.rttNs = Units.parseDuration(at, value);
                case "blackhole" -> b.blackhole = parseBlackhole(at, value);
                case "drops" -> b.drops = parseDrops(at, value);
                default -> throw new SpecException(where + ": unknown key '" + key + "'; valid keys: " + KEYS);
            }
        }
        DirectionSpec d = b.build();
        if (d.burstBytes() > 0 && d.rateBps() == 0) {
            throw new SpecException(where + " burst: a token-bucket burst needs a rate; add rate=RATE or set burst=0");
        }
        if (d.queue().kind() == QueueSpec.Kind.BDP && d.rateBps() == 0 && d.trace() == null) {
            throw new SpecException(where + " queue: a queue in bdp needs a rate or a trace; give queue in packets (143p) "
                    + "or bytes (200kb)");
        }
        return d;
    }

    /** A whole link: a preset and optional overrides for each direction. */
    public static LinkSpec parse(String preset, String down, String up) throws SpecException {
        LinkSpec base = Presets.get(preset);
        return new LinkSpec(preset, apply("--down", base.down(), down), apply("--up", base.up(), up));
    }

    private static boolean onOff(String at, String v) throws SpecException {
        return switch (v.toLowerCase(Locale.ROOT)) {
            case "on", "true", "yes", "1" -> true;
            case "off", "false", "no", "0" -> false;
            default -> throw new SpecException(at + ": '" + v + "' is not on or off");
        };
    }

    static QueueSpec parseQueue(String at, String v) throws SpecException {
        String s = v.toLowerCase(Locale.ROOT);
        String choices = "use packets (143p), bytes (200kb, 1540b), bandwidth-delay products (2bdp) or unlimited";
        if (s.equals("unlimited")) return QueueSpec.UNLIMITED;
        try {
            if (s.endsWith("bdp")) {
                double x = Double.parseDouble(s.substring(0, s.length() - 3));
                if (!(x > 0)) throw new SpecException(at + ": '" + v + "' must be a positive multiple of the BDP");
                return new QueueSpec(QueueSpec.Kind.BDP, x);
            }
            if (s.endsWith("p")) {
                long n = Long.parseLong(s.substring(0, s.length() - 1));
                if (n <= 0) throw new SpecException(at + ": '" + v + "' must be at least 1 packet");
                return new QueueSpec(QueueSpec.Kind.PACKETS, n);
            }
        } catch (NumberFormatException e) {
            throw new SpecException(at + ": '" + v + "' is not a queue size; " + choices);
        }
        long bytes;
        try {
            bytes = Units.parseSize(at, v);
        } catch (SpecException e) {
            throw new SpecException(at + ": '" + v + "' is not a queue size; " + choices);
        }
        if (bytes <= 0) throw new SpecException(at + ": '" + v + "' must be at least 1 byte");
        return new QueueSpec(QueueSpec.Kind.BYTES, bytes);
    }

    static Jitter parseJitter(String at, String v) throws SpecException {
        String s = v.toLowerCase(Locale.ROOT);
        String choices = "use none, normal:cov=0.1, normal:sd=2ms or uniform:2ms";
        if (s.equals("none") || s.equals("0")) return new Jitter.None();
        if (s.startsWith("normal:cov=")) {
            try {
                double cov = Double.parseDouble(s.substring("normal:cov=".length()));
                if (!(cov >= 0)) throw new NumberFormatException();
                return new Jitter.Normal(cov, 0);
            } catch (NumberFormatException e) {
                throw new SpecException(at + ": '" + v + "' has no valid coefficient of variation; " + choices);
            }
        }
        if (s.startsWith("normal:sd=")) return new Jitter.Normal(0, Units.parseDuration(at, s.substring("normal:sd=".length())));
        if (s.startsWith("uniform:")) {
            String w = s.substring("uniform:".length());
            if (w.startsWith("±")) w = w.substring(1);
            if (w.startsWith("+-")) w = w.substring(2);
            return new Jitter.Uniform(Units.parseDuration(at, w));
        }
        throw new SpecException(at + ": '" + v + "' is not a jitter; " + choices);
    }

    static LossSpec parseLoss(String at, String v) throws SpecException {
        String s = v.toLowerCase(Locale.ROOT);
        int burst = 0;
        int b = s.indexOf(",burst=");
        if (b >= 0) {
            burst = count(at + " burst", s.substring(b + ",burst=".length()), "a number of packets, e.g. loss=30%,burst=3");
            s = s.substring(0, b);
        }
        if (!s.startsWith("ge:")) {
            double p = Units.parseProbability(at, s);
            return p == 0 ? LossSpec.NONE : new LossSpec(LossSpec.Kind.BERNOULLI, p, 0, 0, 0, burst);
        }
        double p = -1, r = -1, good = 0, bad = 1;
        for (String part : s.substring(3).split(",")) {
            int eq = part.indexOf('=');
            if (eq <= 0) throw new SpecException(at + ": '" + part + "' in '" + v + "' is not name=probability; "
                    + "write ge:p=1%,r=30%[,good=0%][,bad=100%][,burst=N]");
            String name = part.substring(0, eq);
            double x = Units.parseProbability(at + " " + name, part.substring(eq + 1));
            switch (name) {
                case "p" -> p = x;
                case "r" -> r = x;
                case "good" -> good = x;
                case "bad" -> bad = x;
                default -> throw new SpecException(at + ": unknown Gilbert-Elliott parameter '" + name
                        + "'; valid: p, r, good, bad, burst");
            }
        }
        if (p < 0 || r < 0) throw new SpecException(at + ": Gilbert-Elliott loss needs p and r, e.g. ge:p=1%,r=30%");
        if (p + r == 0) throw new SpecException(at + ": Gilbert-Elliott loss needs p + r > 0");
        return new LossSpec(LossSpec.Kind.GILBERT_ELLIOTT, p, r, good, bad, burst);
    }

    static CorruptSpec parseCorrupt(String at, String v) throws SpecException {
        // a limit of -1 keeps empty parts: "corrupt=," is a missing probability, not an empty array
        String[] parts = v.split(",", -1);
        if (parts[0].isBlank()) {
            throw new SpecException(at + ": '" + v + "' has no probability; write corrupt=P[,burst=N][,within=SIZE]"
                    + "[,change=bit|byte], e.g. corrupt=1%");
        }
        double p = Units.parseProbability(at, parts[0]);
        int burst = 0;
        int within = 0;
        boolean replaceByte = false;
        for (int i = 1; i < parts.length; i++) {
            String part = parts[i].toLowerCase(Locale.ROOT);
            int eq = part.indexOf('=');
            String name = eq < 0 ? part : part.substring(0, eq);
            String value = eq < 0 ? "" : part.substring(eq + 1);
            switch (name) {
                case "burst" -> burst = count(at + " burst", value, "a number of packets, e.g. corrupt=30%,burst=3");
                case "within" -> {
                    long w = Units.parseSize(at + " within", value);
                    if (w < 1 || w > 65535) throw new SpecException(at + " within: '" + value + "' must be 1b to 65535b");
                    within = (int) w;
                }
                case "change" -> replaceByte = switch (value) {
                    case "bit" -> false;
                    case "byte" -> true;
                    default -> throw new SpecException(at + " change: '" + value + "' is not bit or byte");
                };
                default -> throw new SpecException(at + ": unknown corruption parameter '" + name
                        + "' in '" + v + "'; write corrupt=P[,burst=N][,within=SIZE][,change=bit|byte]");
            }
        }
        return p == 0 ? CorruptSpec.NONE : new CorruptSpec(p, burst, within, replaceByte);
    }

    static BlackholeSpec parseBlackhole(String at, String v) throws SpecException {
        String s = v.toLowerCase(Locale.ROOT);
        if (s.equals("off") || s.equals("none")) return BlackholeSpec.NONE;
        String form = "write blackhole=OPEN/CLOSED[,repeat=N], e.g. blackhole=5s/2s (open 5 s, then dark 2 s)";
        String[] parts = s.split(",", -1);
        int slash = parts[0].indexOf('/');
        if (slash <= 0 || slash == parts[0].length() - 1) throw new SpecException(at + ": '" + v + "' has no OPEN/CLOSED times; " + form);
        long open = Units.parseDuration(at + " open time", parts[0].substring(0, slash));
        long closed = Units.parseDuration(at + " dark time", parts[0].substring(slash + 1));
        int repeat = 1;
        for (int i = 1; i < parts.length; i++) {
            if (!parts[i].startsWith("repeat=")) throw new SpecException(at + ": unknown blackhole parameter '" + parts[i] + "'; " + form);
            repeat = count(at + " repeat", parts[i].substring("repeat=".length()), "a number of outages, e.g. repeat=2");
        }
        if (closed == 0) throw new SpecException(at + ": the dark time of '" + v + "' is zero; " + form);
        return new BlackholeSpec(open, closed, repeat);
    }

    /** The last packet position drops= may name (2^40): far beyond any run, and {@code i++} up to it cannot wrap. */
    static final long MAX_DROP_POSITION = 1L << 40;
    /** Positions drops= may list in all its parts together (repeats included), so time and memory stay small. */
    static final int MAX_DROPS = 100_000;

    static java.util.List<Long> parseDrops(String at, String v) throws SpecException {
        if (v.equalsIgnoreCase("none")) return java.util.List.of();
        java.util.TreeSet<Long> out = new java.util.TreeSet<>();
        String form = "write 1-based packet positions such as drops=2,3,4 or drops=2-7";
        long listed = 0;
        for (String part : v.split(",")) {
            int dash = part.indexOf('-');
            try {
                long from = Long.parseLong(dash < 0 ? part : part.substring(0, dash));
                long to = dash < 0 ? from : Long.parseLong(part.substring(dash + 1));
                if (from < 1 || to < from) {
                    throw new SpecException(at + ": '" + part + "' is not a position or an ascending range from 1; " + form);
                }
                if (to > MAX_DROP_POSITION) {
                    throw new SpecException(at + ": '" + part + "' is beyond position " + MAX_DROP_POSITION + "; " + form
                            + ", at most " + MAX_DROP_POSITION);
                }
                listed += to - from + 1;
                if (listed > MAX_DROPS) {
                    throw new SpecException(at + ": '" + part + "' takes the list past " + MAX_DROPS + " positions; " + form
                            + ", at most " + MAX_DROPS + " in all");
                }
                for (long i = from; i <= to; i++) out.add(i);
            } catch (NumberFormatException e) {
                throw new SpecException(at + ": '" + part + "' is not a packet position; " + form);
            }
        }
        return java.util.List.copyOf(out);
    }

    private static int count(String at, String v, String what) throws SpecException {
        try {
            int n = Integer.parseInt(v);
            if (n < 1) throw new NumberFormatException();
            return n;
        } catch (NumberFormatException e) {
            throw new SpecException(at + ": '" + v + "' is not a positive whole number; use " + what);
        }
    }
}
