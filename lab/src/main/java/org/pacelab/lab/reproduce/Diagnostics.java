package org.pacelab.lab.reproduce;

import java.util.ArrayList;
import java.util.List;

import org.pacelab.analysis.summary.Summary;
import org.pacelab.analysis.summary.SummaryField;
import org.pacelab.lab.peer.Peer;
import org.pacelab.lab.scenario.Mode;

/**
 * The measured context a report prints beside a value that differs: for each kind of metric, the other measurements
 * of the same runs that tell where the difference comes from (drops by loss episode, the emulator's lateness and the
 * host's load, train lengths and gaps, the sender's send delays, the reordering receiver's stalls), and what the
 * peer itself says it does not do (e.g. a sender that does not pace).
 */
final class Diagnostics {
    private Diagnostics() {}

    /** Measurements that explain a difference in {@code metric}, as one sentence (empty when there are none). */
    static String explain(Sample s) {
        List<String> parts = new ArrayList<>();
        String m = s.metric();
        if (m.contains("drop") || m.equals("goodput") || m.startsWith("goodput") || m.equals("retransmissions")) {
            add(parts, s, SummaryField.DROPS, "drops %s");
            if (!"0".equals(s.range(SummaryField.DROPS))) {
                add(parts, s, SummaryField.DROPS_FIRST_EPISODE, "of which %s in the first loss episode (the slow-start overshoot)");
                add(parts, s, SummaryField.LOSS_EPISODES, "%s loss episodes");
                add(parts, s, SummaryField.DROPS_LARGEST_EPISODE, "the largest %s drops");
            }
        }
        if (m.startsWith("ptl") || m.startsWith("ipg") || m.equals("trains")) {
            add(parts, s, SummaryField.PTL_PER_PACKET_P50, "median train length %s");
            add(parts, s, SummaryField.PTL_MAX, "longest train %s");
            add(parts, s, SummaryField.IPG_P50_US, "median gap %s µs");
        }
        if (m.startsWith("precision") || m.startsWith("send_delay")) {
            add(parts, s, SummaryField.SEND_DELAY_P50_US, "send delay p50 %s µs");
            add(parts, s, SummaryField.SEND_DELAY_P99_US, "p99 %s µs");
        }
        if (m.startsWith("jfi") || m.contains("flow") || m.equals("total_mbps") || m.contains("utilization")) {
            for (Summary r : s.runs()) {
                if (r.has(SummaryField.FLOW_MBPS)) {
                    parts.add("flows " + r.string(SummaryField.FLOW_MBPS) + " Mbit/s" + (s.runs().size() > 1 ? " (first run)" : ""));
                    break;
                }
            }
            add(parts, s, SummaryField.REORDER_TIMER_EXPIRIES, "t-Reordering expiries %s");
            add(parts, s, SummaryField.REORDER_HOLD_P99_MS, "held packets waited up to %s ms (p99)");
            add(parts, s, SummaryField.PATH_A_UTILIZATION, "path a utilization %s");
            add(parts, s, SummaryField.PATH_B_UTILIZATION, "path b %s");
        }
        // the sender's caveat (once: when one peer serves both roles, server and client are the same object)
        Peer server = s.configuration().server();
        String caveat = server.caveat();
        if (caveat != null && !caveat.isBlank()) {
            parts.add(server.name() + ": " + caveat);
        }
        return String.join("; ", parts);
    }

    /**
     * The conditions of emulated runs: the host's load and the emulator's lateness (empty for simulated runs, whose
     * results do not depend on the host).
     */
    static String conditions(Sample s) {
        List<String> parts = new ArrayList<>();
        if (s.configuration().mode() != Mode.SIM) {
            add(parts, s, SummaryField.HOST_LOAD_START, "load %s");
            add(parts, s, SummaryField.EMULATOR_LATENESS_P99_US, "emulator lateness p99 %s µs");
            add(parts, s, SummaryField.EMULATOR_LATENESS_MAX_US, "max %s µs");
        }
        return String.join(", ", parts);
    }

    private static void add(List<String> parts, Sample s, SummaryField f, String format) {
        String r = s.range(f);
        if (r != null) {
            parts.add(String.format(format, r));
        }
    }
}
