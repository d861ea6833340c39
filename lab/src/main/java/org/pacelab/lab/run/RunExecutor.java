package org.pacelab.lab.run;

import java.io.IOException;
import java.util.List;

import org.pacelab.lab.plan.RunSpec;
import org.pacelab.lab.store.StoreException;

/**
 * Where a campaign's pending runs execute: on this machine ({@link LocalExecutor}) or as a job array on a Slurm cluster
 * ({@code org.pacelab.lab.slurm.SlurmExecutor}). Everything else — the campaign record, resuming, the store, the
 * progress display, retries and the report — is the runner's and the same for every executor: an executor only
 * starts attempts and tells the {@link RunRecorder} how each one ended.
 */
public interface RunExecutor {
    /**
     * Executes the runs (each not yet finished in the store), reporting every attempt to {@code recorder}, which
     * stores it and says whether a failed run is tried again. Returns when no run is left in flight.
     */
    void execute(List<RunSpec> pending, RunRecorder recorder) throws IOException, StoreException, InterruptedException;

    /**
     * The user interrupted the runner (Ctrl-C, SIGTERM): called from the JVM's shutdown hook while {@link #execute}
     * may still be running; stops what must stop and says on stderr what happens to the runs in flight.
     */
    void interrupted();
}
