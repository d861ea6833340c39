package org.pacelab.lab.run;

import java.nio.file.Path;

import org.pacelab.analysis.summary.Summary;

/**
 * A run after analysis: its summary, the per-packet table and congestion timeline files (null when absent), and
 * what the runner measured itself.
 *
 * @param clientWallNs the client process's wall time, or -1 when there was no client process (simulation)
 */
public record AnalysedRun(Summary summary, Path packetsCsv, Path timelineCsv, long clientWallNs, long bytes) {}
