package org.pacelab.analysis.report;

import java.util.List;
import java.util.Locale;

import org.pacelab.analysis.metrics.RunningStats;
import org.pacelab.analysis.summary.SummaryField;

/** The configuration table of the report as plain text for the terminal (same numbers as the HTML). */
public final class ReportTable {
    private ReportTable() {}

    public static String text(List<ConfigurationAggregate> aggs) {
        List<SummaryField> cols = HtmlReport.TABLE;
        String[][] cells = new String[aggs.size() + 1][cols.size() + 2];
        cells[0][0] = "configuration";
        cells[0][1] = "runs";
        for (int c = 0; c < cols.size(); c++) {
            cells[0][c + 2] = HtmlReport.label(cols.get(c));
        }
        for (int r = 0; r < aggs.size(); r++) {
            ConfigurationAggregate a = aggs.get(r);
            cells[r + 1][0] = a.name();
            cells[r + 1][1] = Integer.toString(a.runs());
            for (int c = 0; c < cols.size(); c++) {
                RunningStats s = a.stats(cols.get(c));
                cells[r + 1][c + 2] = s.count() == 0 ? "n/a" : HtmlReport.meanStd(s.mean(), s.populationStd())
                        + (s.count() < a.runs() ? " (n=" + s.count() + ")" : "");
            }
        }
        int[] width = new int[cells[0].length];
        for (String[] row : cells) {
            for (int c = 0; c < row.length; c++) {
                width[c] = Math.max(width[c], row[c].length());
            }
        }
        StringBuilder sb = new StringBuilder();
        for (String[] row : cells) {
            for (int c = 0; c < row.length; c++) {
                sb.append(String.format(Locale.ROOT, c < 2 ? "%-" + width[c] + "s" : "%" + width[c] + "s", row[c]));
                sb.append(c == row.length - 1 ? "\n" : "  ");
            }
        }
        return sb.toString();
    }
}
