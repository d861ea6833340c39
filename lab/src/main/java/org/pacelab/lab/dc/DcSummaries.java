package org.pacelab.lab.dc;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.pacelab.analysis.dc.DcRunData;
import org.pacelab.analysis.dc.DcRunSummary;
import org.pacelab.analysis.summary.Summary;
import org.pacelab.analysis.summary.SummaryField;

/**
 * The per-run summary (the store's and {@code summary.json}'s schema) of a multi-flow dual-connectivity run: the
 * fairness, throughput, utilization and reordering fields from the event log; the capture-based metrics are marked
 * unavailable with the reason.
 */
public final class DcSummaries {
    private DcSummaries() {}

    public static Summary of(DcRunSummary s) {
        Summary out = new Summary();
        out.put(SummaryField.SUMMARY_VERSION, 1);
        number(out, SummaryField.JFI, s.jfi(), s.note());
        number(out, SummaryField.JFI_WINDOW_MEAN, s.jfiWindowMean(), s.note());
        out.put(SummaryField.FLOWS, s.flows().size());
        List<String> rates = new ArrayList<>();
        double dcFlow = Double.NaN;
        long held = 0, expiries = 0, duplicates = 0;
        double holdP99 = Double.NaN;
        for (DcRunSummary.FlowResult f : s.flows()) {
            rates.add(f.mode() + "=" + String.format(Locale.ROOT, "%.2f", f.throughputMbps()));
            if (f.mode().equals("dc") && Double.isNaN(dcFlow)) {
                dcFlow = f.throughputMbps();
                if (f.reordering() != null) holdP99 = f.reordering().holdP99Ms();
            }
            DcRunData.Reordering r = f.reordering();
            // the dual-connected flows' only, as the fields say; single-path flows' receivers (held with
            // single-path=in-order, else passing through) are in dc-summary.json
            if (r != null && f.mode().equals("dc")) {
                held += r.held();
                expiries += r.timerExpiries();
                duplicates += r.duplicates();
            }
        }
        out.put(SummaryField.FLOW_MBPS, String.join(" ", rates));
        number(out, SummaryField.DC_FLOW_MBPS, dcFlow, "no flow was split over both paths (flows: dc)");
        number(out, SummaryField.TOTAL_MBPS, s.throughputMbps(), s.note());
        for (DcRunSummary.PathResult p : s.paths()) {
            SummaryField f = p.name().equals("a") ? SummaryField.PATH_A_UTILIZATION
                    : p.name().equals("b") ? SummaryField.PATH_B_UTILIZATION : null;
            if (f != null) number(out, f, p.utilization(), "the path has no fixed rate or trace (rate=unlimited)");
            SummaryField j = p.name().equals("a") ? SummaryField.JFI_PATH_A : p.name().equals("b") ? SummaryField.JFI_PATH_B : null;
            if (j != null) number(out, j, p.jfi(), "no flow used path " + p.name());
        }
        out.put(SummaryField.REORDER_HELD, held);
        out.put(SummaryField.REORDER_TIMER_EXPIRIES, expiries);
        number(out, SummaryField.REORDER_HOLD_P99_MS, holdP99, "no packet of a dual-connected flow was held");
        out.put(SummaryField.REORDER_DUPLICATES, duplicates);
        String why = "a multi-flow dual-connectivity run is measured from the link's event log (emulator or simulator; "
                + "dc-summary.json), not from a capture";
        for (SummaryField f : SummaryField.values()) {
            if (f.metric() && !out.has(f) && out.reason(f) == null) out.unavailable(f, why);
        }
        if (s.note() != null) out.put(SummaryField.NOTES, s.note());
        return out;
    }

    private static void number(Summary out, SummaryField f, double v, String reason) {
        out.putNumber(f, v, reason == null ? "not computable for this run" : reason);
    }
}
