package org.pacelab.io.send;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The qdiscs of one device as {@code tc qdisc show dev DEV} prints them, and whether they honour SO_TXTIME send
 * times: only fq (which reads them as CLOCK_MONOTONIC earliest departure times) and etf (which launches each
 * packet at its time on the clock it was created with) do; every other qdisc ignores them. Accepted layouts: fq
 * or etf at the root, or an mq/mqprio root whose every child is fq or etf.
 *
 * @param device the device's name
 * @param qdiscs the qdiscs, in tc's order
 */
public record EgressQdisc(String device, List<Qdisc> qdiscs) {

    /**
     * One line of tc's output.
     *
     * @param kind    fq, etf, noqueue, pfifo_fast, mq, …
     * @param handle  e.g. {@code 8001:}
     * @param parent  the parent's class id ({@code :1}, {@code 8001:1}) or null for the root
     * @param clockId etf's clockid as tc prints it (TAI, MONOTONIC, …) or null
     */
    public record Qdisc(String kind, String handle, String parent, String clockId) {
        public boolean isRoot() { return parent == null; }
    }

    /** Parses {@code tc qdisc show dev DEV}; lines that are not qdiscs are skipped. */
    public static EgressQdisc parse(String device, String tcOutput) {
        List<Qdisc> out = new ArrayList<>();
        for (String line : tcOutput.lines().toList()) {
            String[] t = line.trim().split("\\s+");
            if (t.length < 3 || !t[0].equals("qdisc")) {
                continue;
            }
            String parent = null;
            String clock = null;
            boolean root = false;
            for (int i = 3; i < t.length; i++) {
                if (t[i].equals("root")) {
                    root = true;
                } else if (t[i].equals("parent") && i + 1 < t.length) {
                    parent = t[i + 1];
                } else if (t[i].equals("clockid") && i + 1 < t.length) {
                    clock = t[i + 1].toUpperCase(Locale.ROOT).replace("CLOCK_", "");
                }
            }
            out.add(new Qdisc(t[1], t[2], root ? null : parent == null ? "?" : parent, clock));
        }
        return new EgressQdisc(device, List.copyOf(out));
    }

    /** The root qdisc, or null when tc listed none. */
    public Qdisc root() {
        return qdiscs.stream().filter(Qdisc::isRoot).findFirst().orElse(null);
    }

    /**
     * Why send times on {@code clock} would not be honoured on this device, or null when they are: one sentence.
     */
    public String whyTxTimeIgnored(TxTimeClock clock) {
        Qdisc root = root();
        if (root == null) {
            return "tc lists no root qdisc on device " + device;
        }
        List<Qdisc> timed;
        if (isTimed(root)) {
            timed = List.of(root);
        } else if (root.kind().equals("mq") || root.kind().equals("mqprio")) {
            List<Qdisc> children = qdiscs.stream().filter(q -> !q.isRoot()).toList();
            List<Qdisc> untimed = children.stream().filter(q -> !isTimed(q)).toList();
            if (children.isEmpty() || !untimed.isEmpty()) {
                return "device " + device + " has an " + root.kind() + " root whose children are "
                        + (children.isEmpty() ? "not listed" : kinds(untimed)) + ", not all fq or etf";
            }
            timed = children;
        } else {
            return "device " + device + " has the root qdisc " + root.kind() + ", which ignores send times";
        }
        for (Qdisc q : timed) {
            if (q.kind().equals("fq") && clock != TxTimeClock.MONOTONIC) {
                return "fq on device " + device + " reads send times as CLOCK_MONOTONIC, not " + clock.tcName()
                        + " (use " + SendConfig.TXTIME_CLOCK + " monotonic)";
            }
            if (q.kind().equals("etf") && !clock.tcName().equals(q.clockId())) {
                return "etf on device " + device + " runs on clock " + q.clockId() + ", not " + clock.tcName()
                        + " (use " + SendConfig.TXTIME_CLOCK + " " + (q.clockId() == null ? "tai" : q.clockId().toLowerCase(Locale.ROOT)) + ")";
            }
        }
        return null;
    }

    private static boolean isTimed(Qdisc q) {
        return q.kind().equals("fq") || q.kind().equals("etf");
    }

    private static String kinds(List<Qdisc> qs) {
        return String.join(", ", qs.stream().map(Qdisc::kind).distinct().toList());
    }
}
