package org.pacelab.lab.run;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.pacelab.analysis.summary.Summary;
import org.pacelab.analysis.summary.SummaryField;

/**
 * The conditions a run was measured under, added to its summary by the runner: the host's 1-minute load average at
 * the start and the end of the run, and how late the real-time emulator delivered packets against its model (from
 * the report the emulator prints when it stops) and how many packets its warm-up ran (the line it prints before it
 * reports ready). Timing-sensitive figures are read beside them.
 */
public final class RunConditions {
    private static final Path LOADAVG = Path.of("/proc/loadavg");
    private static final Pattern LATENESS = Pattern.compile(
            "delivery lateness \\(delay error\\): p50 ([0-9.]+) us, p99 ([0-9.]+) us, p99\\.9 ([0-9.]+) us, max ([0-9.]+) us");
    /** The emulator's warm-up line (net's {@code WarmUp}): {@code warm-up: N packets ...} or {@code warm-up: off ...}. */
    private static final Pattern WARM_UP = Pattern.compile("(?m)^warm-up: (?:([0-9]+) packets|(off))");

    private RunConditions() {}

    /** The 1-minute load average, or NaN where /proc/loadavg cannot be read. */
    public static double loadAverage() {
        try {
            String[] f = Files.readString(LOADAVG, StandardCharsets.US_ASCII).strip().split("\\s+");
            return Double.parseDouble(f[0]);
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    /**
     * Adds the load averages and the emulator's lateness to {@code s}.
     *
     * @param emulatorLog the emulator's standard output, or null when the run had no real-time emulator
     * @param noEmulator  why there was none (a simulated or a direct run), when {@code emulatorLog} is null
     */
    static void record(Summary s, double loadStart, double loadEnd, Path emulatorLog, String noEmulator) {
        s.putNumber(SummaryField.HOST_LOAD_START, loadStart, "/proc/loadavg could not be read");
        s.putNumber(SummaryField.HOST_LOAD_END, loadEnd, "/proc/loadavg could not be read");
        if (emulatorLog == null) {
            String why = noEmulator;
            s.unavailable(SummaryField.EMULATOR_LATENESS_P99_US, why);
            s.unavailable(SummaryField.EMULATOR_LATENESS_MAX_US, why);
            s.unavailable(SummaryField.EMULATOR_WARMUP_PACKETS, why);
            return;
        }
        Matcher w = find(WARM_UP, emulatorLog);
        if (w == null) {
            s.unavailable(SummaryField.EMULATOR_WARMUP_PACKETS, "the emulator's output (" + emulatorLog.getFileName()
                    + ") has no warm-up line (an emulator from before the warm-up existed)");
        } else {
            s.put(SummaryField.EMULATOR_WARMUP_PACKETS, w.group(2) != null ? 0L : Long.parseLong(w.group(1)));
        }
        Matcher m = find(LATENESS, emulatorLog);
        if (m == null) {
            String why = "the emulator's report (" + emulatorLog.getFileName() + ") has no delivery lateness line";
            s.unavailable(SummaryField.EMULATOR_LATENESS_P99_US, why);
            s.unavailable(SummaryField.EMULATOR_LATENESS_MAX_US, why);
            return;
        }
        s.put(SummaryField.EMULATOR_LATENESS_P99_US, Double.parseDouble(m.group(2)));
        s.put(SummaryField.EMULATOR_LATENESS_MAX_US, Double.parseDouble(m.group(4)));
    }

    private static Matcher find(Pattern p, Path log) {
        try {
            if (!Files.isRegularFile(log)) {
                return null;
            }
            Matcher m = p.matcher(Files.readString(log, StandardCharsets.UTF_8));
            return m.find() ? m : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
