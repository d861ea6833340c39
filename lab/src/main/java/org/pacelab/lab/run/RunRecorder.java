package org.pacelab.lab.run;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.pacelab.analysis.summary.Summary;
import org.pacelab.analysis.summary.SummaryField;
import org.pacelab.analysis.summary.SummaryText;
import org.pacelab.lab.plan.RunSpec;
import org.pacelab.lab.scenario.Collect;
import org.pacelab.lab.store.FinishedRun;
import org.pacelab.lab.store.ResultStore;
import org.pacelab.lab.store.StoreException;

/**
 * What happens to every attempt of a run, whichever executor ran it: a finished run goes into the store in one
 * transaction and the raw files the scenario does not keep are removed; a failure is logged in the store and in the
 * run's {@code FAILED.txt}; both appear in the progress display. The recorder also numbers attempts and decides
 * whether a failed run is tried again in this session ({@code --retries}). Safe to call from several threads.
 */
public final class RunRecorder {
    private static final List<String> RAW = List.of(RunFiles.TAP, RunFiles.EVENTS, RunFiles.KEYS, RunFiles.QLOG, RunFiles.PACKETS);

    private final ResultStore store;
    private final CampaignLayout layout;
    private final Progress progress;
    private final Collect collect;
    private final int retries;
    private final Map<String, Integer> failuresHere = new HashMap<>();
    private final Map<String, Integer> lastAttempt = new HashMap<>();
    private final List<String> failures = new ArrayList<>();
    private int finishedNow;

    /** @param retries extra attempts a failed run gets in this session */
    public RunRecorder(ResultStore store, CampaignLayout layout, Progress progress, Collect collect, int retries) {
        this.store = store;
        this.layout = layout;
        this.progress = progress;
        this.collect = collect;
        this.retries = retries;
    }

    public CampaignLayout layout() {
        return layout;
    }

    public Collect collect() {
        return collect;
    }

    /** The number of the run's next attempt: one more than every attempt stored or handed out before. */
    public synchronized int nextAttempt(RunSpec r) throws StoreException {
        int a = Math.max(store.attempts(r.key()), lastAttempt.getOrDefault(r.key(), 0)) + 1;
        lastAttempt.put(r.key(), a);
        return a;
    }

    /** Whether the store has recorded this attempt of the run (finished or failed). */
    public synchronized boolean recorded(RunSpec r, int attempt) throws StoreException {
        return store.attempts(r.key()) >= attempt;
    }

    /** The run's attempt started; {@code where} (may be empty) says where, e.g. " on node n1 (job 12_3)". */
    public void started(RunSpec r, int attempt, String where) {
        progress.started(label(r) + (attempt > 1 ? " (attempt " + attempt + ")" : "") + where);
    }

    /** Stores a finished attempt in one transaction and shows it. */
    public void finished(RunSpec r, int attempt, AnalysedRun a, Instant startedAt, double seconds) throws StoreException {
        Path dir = layout.runDir(r);
        store.recordFinished(new FinishedRun(r.key(), r.configuration().id(), r.repetition(), r.seed(), attempt, startedAt,
                seconds, a.clientWallNs() > 0 ? a.clientWallNs() / 1e9 : Double.NaN, a.bytes(), dir, a.summary(),
                a.packetsCsv(), a.timelineCsv()));
        removeRawFiles(dir, collect.keep() != Collect.Keep.ALL);
        synchronized (this) {
            finishedNow++;
        }
        progress.finished(label(r), seconds, brief(a.summary()));
    }

    /**
     * Records a failed attempt and shows it. Returns whether the run is tried again in this session: when
     * {@code retryable} and it has failed at most {@code retries} times here. A run not tried again is listed in
     * {@link #failures()}.
     */
    public boolean failed(RunSpec r, int attempt, String error, Instant startedAt, double seconds, boolean retryable)
            throws StoreException {
        store.recordFailure(r.key(), attempt, error, startedAt, seconds);
        Path dir = layout.runDir(r);
        writeFailure(dir, error);
        removeRawFiles(dir, collect.keep() == Collect.Keep.NONE);
        progress.failed(label(r), seconds, error);
        synchronized (this) {
            int n = failuresHere.merge(r.key(), 1, Integer::sum);
            boolean again = retryable && n <= retries;
            if (!again) {
                failures.add(label(r) + ": " + error);
            }
            return again;
        }
    }

    /**
     * Records an attempt that was cancelled (by the user, e.g. {@code scancel}) and shows it; it is not tried again
     * in this session (the next {@code pacelab run} runs it). Returns false.
     */
    public boolean cancelled(RunSpec r, int attempt, String why, Instant startedAt) throws StoreException {
        store.recordFailure(r.key(), attempt, "cancelled: " + why, startedAt, 0);
        writeFailure(layout.runDir(r), "cancelled: " + why);
        progress.cancelled(label(r), why);
        synchronized (this) {
            failures.add(label(r) + ": cancelled: " + why);
        }
        return false;
    }

    /** What the executor is waiting for, shown in the status line until a run starts (e.g. "job 12: 5 pending"). */
    public void status(String text) {
        progress.started(text);
    }

    /** A line for the user above the progress bar (what an executor did: a job submitted, a problem). */
    public void message(String line) {
        progress.message(line);
    }

    /** How many runs execute at once now (the progress display's ETA divides by it). */
    public void parallelism(int n) {
        progress.parallelism(n);
    }

    public synchronized int finishedNow() {
        return finishedNow;
    }

    /** The runs that failed and are not tried again in this session, each with its last error. */
    public synchronized List<String> failures() {
        return List.copyOf(failures);
    }

    public static String label(RunSpec r) {
        return r.configuration().name() + " #" + r.repetition();
    }

    private static void removeRawFiles(Path dir, boolean remove) {
        if (!remove) {
            return;
        }
        for (String name : RAW) {
            try {
                CampaignRunner.deleteTree(dir.resolve(name));
            } catch (IOException e) {
                // a file that cannot be removed stays; the results are stored already
            }
        }
    }

    private static void writeFailure(Path dir, String error) {
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("FAILED.txt"), error + "\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            // the failure is in the store and on the terminal already
        }
    }

    private static String brief(Summary s) {
        List<String> parts = new ArrayList<>();
        add(parts, s, SummaryField.JFI, "jfi %s");
        add(parts, s, SummaryField.DC_FLOW_MBPS, "dc flow %s Mbit/s");
        add(parts, s, SummaryField.GOODPUT_WIRE_MBPS, "goodput %s Mbit/s");
        add(parts, s, SummaryField.DROPS, "drops %s");
        add(parts, s, SummaryField.PTL_LE2_SHARE, "ptl<=2 %s");
        add(parts, s, SummaryField.PRECISION_US, "precision %s us");
        return parts.isEmpty() ? "finished" : String.join(", ", parts);
    }

    private static void add(List<String> parts, Summary s, SummaryField f, String format) {
        if (s.has(f)) {
            parts.add(String.format(Locale.ROOT, format, SummaryText.formatNumber(s.number(f))));
        }
    }
}
