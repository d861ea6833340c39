package org.pacelab.net.dc;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.pacelab.net.spec.DirectionSpec;
import org.pacelab.net.spec.LinkSpecParser;
import org.pacelab.net.spec.SpecException;
import org.pacelab.net.spec.Units;

/**
 * Reads a dual-connectivity spec ({@code pacelab emulate --dc SPEC}): whitespace-separated {@code key=value} fields.
 * <pre>
 *   split=batch|duplicate|a|b   batches alternating between the paths (default), every packet on both, or one path
 *   batch=N                     packets per batch (default 100; 100p also accepted)
 *   ratio=A:B|P%|matched        batches on path a : path b (default 1:1); P% = share of path a (90% = 9:1);
 *                               matched = the paths' rates (rate=50mbit:10mbit gives 5:1)
 *   t-reordering=TIME           the receiver's reordering timer (default 200ms; 0 releases a gap at once)
 *   reordering=on|off|hold-limit
 *                               on = TS 38.323 §5.2.2 (one t-Reordering per gap); off = deliver at once (TS 38.323
 *                               outOfOrderDelivery), duplicates still discarded; hold-limit = in order, each packet
 *                               held at most t-Reordering after its arrival (a variant, not the specification's)
 *   single-path=pass-through|in-order
 *                               flows on one path only (mode a or b, or split=a|b): pass-through (default) = delivered
 *                               as their path delivers them; in-order = their own PDCP numbering and the same in-order
 *                               receiver as split flows (an NR bearer without outOfOrderDelivery, TS 38.323 §5.2.2),
 *                               so a loss on their path holds their later packets until t-Reordering expires
 *   sn=12|18                    PDCP SN size in bits (default 18)
 *   wire=RATE|off               the server's access link before the splitter (default 1gbit; the tap is after it)
 *   wire-overhead=SIZE          per-frame wire overhead (default 38b)
 *   rate=A[:B]  delay=A[:B]  loss=A[:B]  queue=A[:B]
 *                               both paths at once: the same value, or path a's and path b's (bandwidth and delay
 *                               ratios, e.g. rate=50mbit:10mbit delay=5ms:15ms; loss here is Bernoulli only)
 *   a.KEY=V  b.KEY=V  up.KEY=V  a link field (see LinkSpecParser) for path a, path b or the uplink
 * </pre>
 * Fields for both paths apply first, then {@code a.}/{@code b.} fields, then {@code --path-a}/{@code --path-b}.
 * Paths start from {@link #DEFAULT_PATH} ({@code rate=20mbit queue=100p delay=10ms jitter=normal:cov=0.1}, in order
 * within a path, no wire), the uplink from {@link #DEFAULT_UP} ({@code delay=10ms}). Path and uplink specs given on
 * their own ({@code --path-a}, {@code --path-b}, {@code --up}) apply after the prefixed fields. BDP queue sizes use
 * the path's delay plus the uplink's (or the path's {@code rtt=}).
 */
public final class DcSpecParser {
    private DcSpecParser() {}

    /** {@code reordering=hold-limit}: in-order delivery, each packet held at most t-Reordering after its arrival. */
    public static final String HOLD_LIMIT = "hold-limit";

    /** {@code single-path=in-order}: flows on one path get the in-order receiver too. */
    public static final String SINGLE_PATH_IN_ORDER = "in-order";

    /** {@code single-path=pass-through} (the default): flows on one path are delivered as their path delivers them. */
    public static final String SINGLE_PATH_PASS_THROUGH = "pass-through";

    public static final String KEYS = "split, batch, ratio, t-reordering, reordering, single-path, sn, wire, wire-overhead, "
            + "rate, delay, loss, queue (both paths: X or A:B), and a.KEY, b.KEY, up.KEY for link fields of path a, path b and the uplink";

    /** Link fields that may be given for both paths at once ({@code X} or {@code A:B}). */
    private static final java.util.List<String> BOTH_PATHS = java.util.List.of("rate", "delay", "loss", "queue");

    /** A path's starting point: 20 Mbit/s, 100-packet drop-tail queue, 10 ms with normal jitter (CoV 10 %), in order. */
    public static final DirectionSpec DEFAULT_PATH;
    /** The uplink's starting point: 10 ms, unshaped. */
    public static final DirectionSpec DEFAULT_UP;

    static {
        try {
            DEFAULT_PATH = LinkSpecParser.apply("default path", DirectionSpec.UNSHAPED,
                    "rate=20mbit queue=100p delay=10ms jitter=normal:cov=0.1 reorder=off wire=off");
            DEFAULT_UP = LinkSpecParser.apply("default uplink", DirectionSpec.UNSHAPED, "delay=10ms wire=off");
        } catch (SpecException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The study's structure with pacelab's default rates: see the class comment. */
    public static DcSpec defaults() {
        return new DcSpec(DEFAULT_PATH, DEFAULT_PATH, DEFAULT_UP, new SplitPolicy.Batches(100, SplitRatio.EVEN),
                ReorderingConfig.DEFAULT, 1_000_000_000L, 38);
    }

    /**
     * @param dc    the {@code --dc} fields (may be null or blank: all defaults)
     * @param pathA {@code --path-a} fields, applied after {@code a.} fields (may be null)
     * @param pathB {@code --path-b} fields (may be null)
     * @param up    {@code --up} fields (may be null)
     */
    public static DcSpec parse(String dc, String pathA, String pathB, String up) throws SpecException {
        DcSpec d = defaults();
        String splitKind = "batch";
        int batch = 100;
        SplitRatio ratio = SplitRatio.EVEN;
        long tReordering = d.reordering().tReorderingNanos();
        boolean inOrder = true;
        boolean holdLimit = false;
        boolean singlePathInOrder = false;
        int sn = d.reordering().snBits();
        long wire = d.wireBps();
        int wireOverhead = d.wireOverheadBytes();
        Map<String, StringBuilder> sub = new TreeMap<>();
        boolean matched = false;
        StringBuilder bothA = new StringBuilder(), bothB = new StringBuilder();
        if (dc != null && !dc.isBlank()) {
            for (String token : dc.strip().split("\\s+")) {
                int eq = token.indexOf('=');
                if (eq <= 0 || eq == token.length() - 1) {
                    throw new SpecException("--dc: '" + token + "' is not a key=value field; valid keys: " + KEYS);
                }
                String key = token.substring(0, eq).toLowerCase(Locale.ROOT);
                String value = token.substring(eq + 1);
                String at = "--dc " + key;
                int dot = key.indexOf('.');
                if (dot > 0) {
                    String target = key.substring(0, dot);
                    if (!target.equals("a") && !target.equals("b") && !target.equals("up")) {
                        throw new SpecException("--dc: '" + key + "' names no path; prefix link fields with a., b. or up.");
                    }
                    sub.computeIfAbsent(target, k -> new StringBuilder()).append(key.substring(dot + 1)).append('=')
                            .append(value).append(' ');
                    continue;
                }
                switch (key) {
                    case "split" -> {
                        splitKind = value.toLowerCase(Locale.ROOT);
                        if (!splitKind.equals("batch") && !splitKind.equals("duplicate") && !splitKind.equals("a")
                                && !splitKind.equals("b")) {
                            throw new SpecException(at + ": '" + value + "' is not a split; use batch, duplicate, a or b");
                        }
                    }
                    case "batch" -> batch = parseBatch(at, value);
                    case "ratio" -> {
                        matched = value.equalsIgnoreCase("matched");
                        if (!matched) ratio = SplitRatio.parse(at, value);
                    }
                    case "rate", "delay", "loss", "queue" -> {
                        int colon = value.indexOf(':');
                        if (key.equals("loss") && value.toLowerCase(Locale.ROOT).startsWith("ge:")) {
                            throw new SpecException(at + ": Gilbert-Elliott loss goes on one path at a time (a.loss=ge:... "
                                    + "b.loss=...); loss= for both paths takes P or A:B, e.g. 1% or 1%:0%");
                        }
                        String va = colon < 0 ? value : value.substring(0, colon);
                        String vb = colon < 0 ? value : value.substring(colon + 1);
                        if (va.isEmpty() || vb.isEmpty() || vb.indexOf(':') >= 0) {
                            throw new SpecException(at + ": '" + value + "' is not one value or A:B (path a's and path b's), "
                                    + "e.g. " + key + "=" + example(key));
                        }
                        bothA.append(key).append('=').append(va).append(' ');
                        bothB.append(key).append('=').append(vb).append(' ');
                    }
                    case "t-reordering", "treordering", "timer" -> tReordering = Units.parseDuration(at, value);
                    case "reordering" -> {
                        holdLimit = value.equalsIgnoreCase(HOLD_LIMIT);
                        inOrder = holdLimit || onOff(at, value, "on, off or " + HOLD_LIMIT + " (in order, each packet held "
                                + "at most t-reordering)");
                    }
                    case "single-path" -> {
                        switch (value.toLowerCase(Locale.ROOT)) {
                            case SINGLE_PATH_IN_ORDER -> singlePathInOrder = true;
                            case SINGLE_PATH_PASS_THROUGH -> singlePathInOrder = false;
                            default -> throw new SpecException(at + ": '" + value + "' is not a single-path receiver; use "
                                    + SINGLE_PATH_PASS_THROUGH + " (delivered as the path delivers, the default) or "
                                    + SINGLE_PATH_IN_ORDER + " (held in PDCP order like split flows)");
                        }
                    }
                    case "sn" -> {
                        if (!value.equals("12") && !value.equals("18")) {
                            throw new SpecException(at + ": '" + value + "' is not a PDCP SN size; use 12 or 18 (bits)");
                        }
                        sn = Integer.parseInt(value);
                    }
                    case "wire" -> wire = value.equalsIgnoreCase("off") ? 0 : Units.parseRate(at, value);
                    case "wire-overhead" -> wireOverhead = (int) Units.parseSize(at, value);
                    default -> throw new SpecException("--dc: unknown key '" + key + "'; valid keys: " + KEYS);
                }
            }
        }
        DirectionSpec a = LinkSpecParser.apply("--dc (path a)", d.a(), bothA.toString());
        DirectionSpec b = LinkSpecParser.apply("--dc (path b)", d.b(), bothB.toString());
        a = LinkSpecParser.apply("--dc a.", a, text(sub.get("a")));
        b = LinkSpecParser.apply("--dc b.", b, text(sub.get("b")));
        DirectionSpec u = LinkSpecParser.apply("--dc up.", d.up(), text(sub.get("up")));
        a = LinkSpecParser.apply("--path-a", a, pathA);
        b = LinkSpecParser.apply("--path-b", b, pathB);
        u = LinkSpecParser.apply("--up", u, up);
        checkNoWire("path a", a);
        checkNoWire("path b", b);
        if (matched) {
            if (a.rateBps() <= 0 || b.rateBps() <= 0) {
                throw new SpecException("--dc ratio: matched needs a fixed rate on both paths (rate=A:B or a.rate=, b.rate=); "
                        + "a trace or an unlimited path has none, so give the ratio as A:B");
            }
            ratio = SplitRatio.parse("--dc ratio", a.rateBps() + ":" + b.rateBps());
        }
        SplitPolicy split = switch (splitKind) {
            case "duplicate" -> new SplitPolicy.Duplicate();
            case "a" -> new SplitPolicy.Single(DcPath.A);
            case "b" -> new SplitPolicy.Single(DcPath.B);
            default -> new SplitPolicy.Batches(batch, ratio);
        };
        if (singlePathInOrder && !inOrder) {
            throw new SpecException("--dc single-path: in-order needs an in-order receiver, but reordering=off delivers "
                    + "every flow at once; use reordering=on or " + HOLD_LIMIT + ", or single-path=" + SINGLE_PATH_PASS_THROUGH);
        }
        return new DcSpec(a, b, u, split, new ReorderingConfig(sn, tReordering, !inOrder, holdLimit, singlePathInOrder), wire,
                wireOverhead);
    }

    private static String text(StringBuilder b) { return b == null ? null : b.toString(); }

    private static String example(String key) {
        return switch (key) {
            case "rate" -> "50mbit:10mbit";
            case "delay" -> "5ms:15ms";
            case "loss" -> "1%:0%";
            default -> "100p:50p";
        };
    }

    private static int parseBatch(String at, String value) throws SpecException {
        String v = value.toLowerCase(Locale.ROOT);
        if (v.endsWith("p")) v = v.substring(0, v.length() - 1);
        long n;
        try {
            n = Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new SpecException(at + ": '" + value + "' is not a batch size; give a number of packets, e.g. 100");
        }
        if (n < 1) throw new SpecException(at + ": '" + value + "' must be at least 1 packet");
        if (n > 1_000_000) throw new SpecException(at + ": '" + value + "' is more than 1000000 packets");
        return (int) n;
    }

    private static boolean onOff(String at, String v, String valid) throws SpecException {
        return switch (v.toLowerCase(Locale.ROOT)) {
            case "on", "true", "yes", "1" -> true;
            case "off", "false", "no", "0" -> false;
            default -> throw new SpecException(at + ": '" + v + "' is not " + valid);
        };
    }

    private static void checkNoWire(String name, DirectionSpec d) throws SpecException {
        if (d.wireBps() > 0) {
            throw new SpecException(name + " wire: the access-link wire model sits before the splitter; set wire= in --dc, "
                    + "not on a path");
        }
    }
}
