package org.pacelab.sim;

import java.util.Map;

import org.pacelab.analysis.RunResult;
import org.pacelab.sim.output.RunFiles;

/**
 * What a simulated run produced.
 *
 * @param files           the run's files
 * @param completed       every download finished successfully
 * @param outcome         one sentence: how the client ended (all downloads done, connection closed, timed out)
 * @param virtualNanos    virtual time the run covered, from the first event to the last
 * @param clientNanos     virtual time from the client's start to its end (the client log's wall_time_ns)
 * @param transferBytes   body bytes the client received
 * @param goodputMbps     8 × bytes / (last byte − request) from the client's download results, Mbit/s
 * @param wallNanos       real time the simulation took (not written to any file)
 * @param events          events the engine processed
 * @param counters        the hosts', qdiscs' and link's counters
 * @param analysis        the analyzer's result (also in summary.json), or null when analysis was off
 */
public record SimResult(RunFiles files, boolean completed, String outcome, long virtualNanos, long clientNanos,
                        long transferBytes, double goodputMbps, long wallNanos, long events, Map<String, Long> counters,
                        RunResult analysis) {

    /** How many times faster than real time the simulation ran. */
    public double speedup() {
        return wallNanos == 0 ? 0 : (double) virtualNanos / wallNanos;
    }
}
