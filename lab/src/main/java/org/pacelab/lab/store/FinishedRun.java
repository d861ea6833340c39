package org.pacelab.lab.store;

import java.nio.file.Path;
import java.time.Instant;

import org.pacelab.analysis.summary.Summary;

/**
 * A repetition that ran to the end and was analysed, as it goes into the store in one transaction.
 *
 * @param clientWallS the client process's wall time, measured by the runner (NaN when there was no process)
 * @param bytes       body bytes the client received
 * @param packetsCsv  the per-packet table the analysis wrote, or null when not collected
 * @param timelineCsv the congestion timeline, or null when there was no qlog
 */
public record FinishedRun(String runKey, String configId, int repetition, long seed, int attempt, Instant startedAt,
                          double durationS, double clientWallS, long bytes, Path runDir, Summary summary, Path packetsCsv,
                          Path timelineCsv) {}
