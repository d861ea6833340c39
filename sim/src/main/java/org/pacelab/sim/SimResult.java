package org.pacelab.sim;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;

import org.pacelab.analysis.RunResult;
import org.pacelab.net.dc.DcFlowMode;
import org.pacelab.sim.output.RunFiles;

/**
 * What a simulated run produced.
 *
 * @param files           the run's files
 * @param completed       every client ended well: its downloads finished, or it downloaded for the whole duration
 * @param outcome         one sentence: how the client ended (all downloads done, connection closed, timed out)
 * @param virtualNanos    virtual time the run covered, from the first event to the last
 * @param clientNanos     virtual time from the client's start to its end (the client log's wall_time_ns)
 * @param transferBytes   body bytes the clients received
 * @param goodputMbps     8 × bytes / (last byte − first request) over all clients' download results, or 8 × bytes /
 *                        duration for a fixed-duration run, Mbit/s
 * @param wallNanos       real time the simulation took (not written to any file)
 * @param events          events the engine processed
 * @param counters        the hosts', qdiscs' and link's counters
 * @param analysis        the analyzer's result (also in summary.json), or null when analysis was off or the run had
 *                        several flows or a dual-connectivity link (measured from the event log instead)
 * @param flows           per client/server pair, in flow order
 * @param capturePass     how the analysis read the tap ({@link org.pacelab.sim.output.CapturePipe#status()}: "used"
 *                        for the pass made while the tap was written, or "not used: REASON"), null when no such pass
 *                        was made (not written to any file)
 */
public record SimResult(RunFiles files, boolean completed, String outcome, long virtualNanos, long clientNanos,
                        long transferBytes, double goodputMbps, long wallNanos, long events, Map<String, Long> counters,
                        RunResult analysis, List<FlowResult> flows, String capturePass) {

    public SimResult {
        flows = List.copyOf(flows);
    }

    /**
     * What one client/server pair got.
     *
     * @param flow          the link's flow id (1 for the first pair)
     * @param mode          how its packets used a dual-connectivity link (dc on a single-path link)
     * @param client        the client's address
     * @param bodyBytes     body bytes the client received (finished downloads or not)
     * @param goodputMbps   8 × bytes / duration for a fixed-duration client, else over its download results, Mbit/s
     * @param completed     its downloads finished, or it downloaded for the whole duration
     * @param outcome       one sentence: how it ended
     * @param handshakeNanos virtual time from the start to its handshake's completion, or -1
     * @param endNanos      virtual time from the start to the end of its loop
     */
    public record FlowResult(int flow, DcFlowMode mode, InetSocketAddress client, long bodyBytes, double goodputMbps,
                             boolean completed, String outcome, long handshakeNanos, long endNanos) { }

    /** How many times faster than real time the simulation ran. */
    public double speedup() {
        return wallNanos == 0 ? 0 : (double) virtualNanos / wallNanos;
    }
}
