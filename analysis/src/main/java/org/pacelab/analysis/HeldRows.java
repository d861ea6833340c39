package org.pacelab.analysis;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import org.pacelab.analysis.table.PacketCsvWriter;

/**
 * The table's rows of a held-back pass ({@link AnalysisPass#replay}) written on a thread of their own
 * ({@code packets-csv}) while the replaying thread matches them with the qlog: the rows' text (numbers formatted,
 * encoded and written to packets.csv) was ~2/3 of the replay's CPU, 55 of its 82 samples on the main thread of a 100
 * MiB simulated run (docs/benchmarks.md, issue 14, fourth sitting). The replaying thread {@link #publish}es how many
 * held rows it has done (their send delays and target gaps stored); this thread writes up to there, in order, with
 * the same calls of {@link PacketCsvWriter} the pass would have made, so the table is the same. It parks when it has
 * caught up. Its failure is thrown by {@link #await}.
 */
final class HeldRows {
    /** The replaying thread publishes its progress every this many + 1 rows (and at the end). */
    static final int PUBLISH_MASK = 1023;

    private final List<AnalysisPass.Held> ops;
    private final long[] found;
    private final PacketCsvWriter csv;
    private final AtomicInteger published = new AtomicInteger();
    private volatile boolean stopped;
    private Throwable failure;
    private final Thread thread;

    private HeldRows(List<AnalysisPass.Held> ops, long[] found, PacketCsvWriter csv) {
        this.ops = ops;
        this.found = found;
        this.csv = csv;
        this.thread = Thread.ofPlatform().name("packets-csv").daemon().unstarted(this::write);
    }

    /** Starts writing {@code ops}' rows to {@code csv} as they are published, with {@code found}'s delays and gaps. */
    static HeldRows start(List<AnalysisPass.Held> ops, long[] found, PacketCsvWriter csv) {
        HeldRows rows = new HeldRows(ops, found, csv);
        rows.thread.start();
        return rows;
    }

    /** Rows [0, {@code done}) are analysed: their delays and gaps are in {@code found}. */
    void publish(int done) {
        published.set(done);
        LockSupport.unpark(thread);
    }

    private void write() {
        try {
            int i = 0;
            while (i < ops.size()) {
                int upTo = published.get();
                if (i == upTo) {
                    if (stopped) {
                        return;
                    }
                    LockSupport.park(this);
                    continue;
                }
                i = write(i, upTo);
            }
        } catch (Throwable e) {
            failure = e; // seen by await after the join
        }
    }

    /** Writes rows [from, to); returns to. A method of its own so that it is compiled soon (the loop above runs once). */
    private int write(int from, int to) throws IOException {
        for (int i = from; i < to && !stopped; i++) {
            AnalysisPass.writeRow(ops.get(i), found[2 * i], found[2 * i + 1], csv);
        }
        return to;
    }

    /** Waits until every row is written; throws the thread's failure (an I/O error as the pass would have thrown it). */
    void await() throws IOException {
        join(); // the table is finished all the same when interrupted (a bounded amount of work)
        Throwable f = failure;
        if (f instanceof IOException e) {
            throw e;
        } else if (f instanceof UncheckedIOException e) {
            throw e;
        } else if (f instanceof RuntimeException e) {
            throw e;
        } else if (f instanceof Error e) {
            throw e;
        } else if (f != null) {
            throw new IllegalStateException(f);
        }
        if (stopped) {
            throw new InterruptedIOException("the table's rows were stopped");
        }
    }

    /** Ends the thread after the row it is writing and waits for it. */
    void stop() {
        stopped = true;
        LockSupport.unpark(thread);
        join();
    }

    /** Waits until the thread has ended, keeping the caller's interrupt for after. */
    private void join() {
        boolean interrupted = false;
        while (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
