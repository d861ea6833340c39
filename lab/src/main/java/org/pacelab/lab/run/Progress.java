package org.pacelab.lab.run;

import java.io.PrintStream;
import java.util.Locale;

/**
 * The campaign's progress line: a bar, runs done of all, failures, elapsed time, an ETA, and what runs now. On a
 * terminal it redraws one line; otherwise it prints a line per finished run. The ETA uses the mean duration of the
 * runs finished in this session (divided by the parallelism), before that the plan's estimate.
 */
public final class Progress {
    private static final int BAR = 24;

    private final PrintStream out;
    private final boolean terminal;
    private final int total;
    private final long startNanos = System.nanoTime();
    private int done;
    private int failed;
    private int finishedHere;
    private double secondsHere;
    private double estimatePerRun;
    private int parallelism = 1;
    private String current = "";
    private int lastWidth;

    public Progress(PrintStream out, boolean terminal, int total, int alreadyDone, double estimatePerRunSeconds) {
        this.out = out;
        this.terminal = terminal;
        this.total = total;
        this.done = alreadyDone;
        this.estimatePerRun = estimatePerRunSeconds;
    }

    public synchronized void parallelism(int n) {
        parallelism = Math.max(1, n);
    }

    public synchronized void started(String what) {
        current = what;
        draw();
    }

    public synchronized void finished(String what, double seconds, String result) {
        done++;
        finishedHere++;
        secondsHere += seconds;
        if (!terminal) {
            out.printf(Locale.ROOT, "[%d/%d] %s: %s (%.1f s)%n", done, total, what, result, seconds);
        } else {
            clear();
            out.printf(Locale.ROOT, "%s: %s (%.1f s)%n", what, result, seconds);
        }
        current = "";
        draw();
    }

    public synchronized void failed(String what, double seconds, String error) {
        failed++;
        if (terminal) {
            clear();
        }
        out.printf(Locale.ROOT, "%s: FAILED after %.1f s: %s%n", what, seconds, error);
        draw();
    }

    /** A run that was cancelled (not a failure of the run: it did not get to finish). */
    public synchronized void cancelled(String what, String why) {
        failed++;
        if (terminal) {
            clear();
        }
        out.printf(Locale.ROOT, "%s: CANCELLED: %s%n", what, why);
        draw();
    }

    /** A line for the user (what the executor did), printed above the status line. */
    public synchronized void message(String line) {
        if (terminal) {
            clear();
        }
        out.println(line);
        draw();
    }

    /** Redraws (called by a ticker so the elapsed time moves). */
    public synchronized void tick() {
        draw();
    }

    public synchronized void end() {
        if (terminal) {
            clear();
        }
        out.flush();
    }

    /** The status line as drawn. */
    public synchronized String line() {
        int filled = total == 0 ? BAR : (int) Math.round(BAR * (double) done / total);
        StringBuilder b = new StringBuilder("[");
        b.append("#".repeat(filled)).append("-".repeat(BAR - filled)).append("] ");
        b.append(done).append('/').append(total).append(" runs");
        if (failed > 0) {
            b.append(", ").append(failed).append(" failed");
        }
        b.append(" | elapsed ").append(duration((System.nanoTime() - startNanos) / 1e9));
        b.append(" | ETA ").append(done >= total ? "0s" : duration(etaSeconds()));
        if (!current.isEmpty()) {
            b.append(" | ").append(current);
        }
        return b.toString();
    }

    double etaSeconds() {
        double perRun = finishedHere > 0 ? secondsHere / finishedHere : estimatePerRun;
        return perRun * (total - done) / parallelism;
    }

    private void draw() {
        if (!terminal) {
            return;
        }
        String l = line();
        out.print("\r" + l + (l.length() < lastWidth ? " ".repeat(lastWidth - l.length()) : ""));
        lastWidth = l.length();
        out.flush();
    }

    private void clear() {
        out.print("\r" + " ".repeat(lastWidth) + "\r");
        lastWidth = 0;
    }

    static String duration(double seconds) {
        long s = Math.round(seconds);
        if (s < 60) {
            return s + "s";
        }
        if (s < 3600) {
            return s / 60 + "m" + String.format(Locale.ROOT, "%02d", s % 60) + "s";
        }
        return s / 3600 + "h" + String.format(Locale.ROOT, "%02d", s % 3600 / 60) + "m";
    }
}
