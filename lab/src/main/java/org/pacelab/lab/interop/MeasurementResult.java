package org.pacelab.lab.interop;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one measurement cell ran: every repetition (its directory, result, wall time, load average at its start and,
 * when it succeeded, its goodput), the statistics of the values when every repetition succeeded, and the cell's result
 * (the runner's: the first repetition that did not succeed gives it, with its number; else the mean ± std).
 *
 * @param statistics null unless every repetition succeeded
 */
public record MeasurementResult(InteropMeasurement measurement, List<Repetition> repetitions, GoodputStatistics statistics,
                                CheckResult result) {
    public MeasurementResult {
        repetitions = List.copyOf(repetitions);
    }

    /**
     * One repetition.
     *
     * @param directory its directory relative to the cell's
     * @param seconds   wall time of the run (processes, emulator and check)
     * @param load      the host's 1-minute load average at its start (NaN where unreadable)
     * @param goodput   its value, or null when it did not succeed
     */
    public record Repetition(int index, String directory, CheckResult result, double seconds, double load, Goodput goodput) {
    }

    /** The cell's result after these repetitions (all that ran: the measurement stops at the first that did not succeed). */
    public static MeasurementResult of(InteropMeasurement m, List<Repetition> done) {
        Repetition last = done.getLast();
        String at = "repetition " + last.index() + " of " + m.repetitions() + ": ";
        if (!last.result().ok()) {
            return new MeasurementResult(m, done, null, new CheckResult(last.result().outcome(), at + last.result().reason()));
        }
        if (last.goodput() == null) {
            return new MeasurementResult(m, done, null, CheckResult.failed(at + "its check gave no goodput"));
        }
        if (done.size() < m.repetitions()) {
            throw new IllegalArgumentException(done.size() + " of " + m.repetitions() + " repetitions, all succeeded: not finished");
        }
        List<Double> values = done.stream().map(r -> r.goodput().kbps()).toList();
        GoodputStatistics s = GoodputStatistics.of(values);
        return new MeasurementResult(m, done, s, CheckResult.succeeded(s.describe(m.unit())));
    }

    /** The measurement's part of the cell's {@code result.json}. */
    Map<String, Object> json() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", measurement.name());
        m.put("unit", measurement.unit());
        m.put("repetitions_planned", measurement.repetitions());
        m.put("n", statistics == null ? null : statistics.n());
        m.put("mean", statistics == null ? null : round(statistics.mean()));
        m.put("std", statistics == null || Double.isNaN(statistics.std()) ? null : round(statistics.std()));
        List<Map<String, Object>> reps = new ArrayList<>();
        for (Repetition r : repetitions) {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("repetition", r.index());
            x.put("directory", r.directory());
            x.put("result", r.result().outcome().label());
            x.put("reason", r.result().reason());
            x.put("wall_seconds", Math.round(r.seconds() * 1000) / 1000.0);
            x.put("load", Double.isNaN(r.load()) ? null : r.load());
            if (r.goodput() != null) {
                x.put("bytes", r.goodput().bytes());
                x.put("transfer_seconds", r.goodput().seconds());
                x.put("goodput", round(r.goodput().kbps()));
            }
            reps.add(x);
        }
        m.put("repetitions", reps);
        return m;
    }

    private static double round(double v) {
        return Math.round(v * 10) / 10.0;
    }
}
