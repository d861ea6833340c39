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
 * the report the emulator prints when it stops). Timing-sensitive figures are read beside them.
 */
public final class RunConditions {
    private static final Path LOADAVG = Path.of("/proc/loadavg");
    private static final Pattern LATENESS = Pattern.compile(
            "delivery lateness \\(delay error\\): p50 ([0-9.]+) us, p99 ([0-9.]+) us, p99\\.9 ([0-9.]+) us, max ([0-9.]+) us");

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
            return;
        }
        Matcher m = lateness(emulatorLog);
        if (m == null) {
            String why = "the emulator's report (" + emulatorLog.getFileName() + ") has no delivery lateness line";
            s.unavailable(SummaryField.EMULATOR_LATENESS_P99_US, why);
            s.unavailable(SummaryField.EMULATOR_LATENESS_MAX_US, why);
            return;
        }
        s.put(SummaryField.EMULATOR_LATENESS_P99_US, Double.parseDouble(m.group(2)));
        s.put(SummaryField.EMULATOR_LATENESS_MAX_US, Double.parseDouble(m.group(4)));
    }

    private static Matcher lateness(Path log) {
        try {
            if (!Files.isRegularFile(log)) {
                return null;
            }
            Matcher m = LATENESS.matcher(Files.readString(log, StandardCharsets.UTF_8));
            return m.find() ? m : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
