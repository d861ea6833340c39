package org.pacelab.analysis;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Inputs of one analysis. Only the capture is required.
 *
 * @param capture       pcap or pcapng file
 * @param keyLog        NSS key log (SSLKEYLOGFILE), or null
 * @param qlog          qlog file or directory of qlog files, or null
 * @param events        emulator event log, or null
 * @param clientLog     JSON log of {@code pacelab client}, or null
 * @param serverPort    the server's port, or null to detect the server from the handshake
 * @param thresholdNs   packet-train threshold in ns (the study's 0.1 ms = 100 000 ns)
 * @param transferBytes application bytes transferred, when no client log says it; or null
 * @param packetsCsv    where to write the per-packet table, or null
 * @param pathCapacityBytes what the emulated path holds without a drop (the downlink's BDP plus its buffer), for the
 *                      slow-start overshoot; or null when unknown
 */
public record AnalysisOptions(Path capture, Path keyLog, Path qlog, Path events, Path clientLog, Integer serverPort,
                              long thresholdNs, Long transferBytes, Path packetsCsv, Long pathCapacityBytes) {
    public static final long DEFAULT_THRESHOLD_NS = 100_000;

    public AnalysisOptions {
        Objects.requireNonNull(capture, "capture");
        if (thresholdNs <= 0) {
            throw new IllegalArgumentException("the train threshold must be positive, got " + thresholdNs + " ns");
        }
        if (serverPort != null && (serverPort < 1 || serverPort > 65535)) {
            throw new IllegalArgumentException("server port must be 1..65535, got " + serverPort);
        }
        if (pathCapacityBytes != null && pathCapacityBytes <= 0) {
            throw new IllegalArgumentException("the path capacity must be positive, got " + pathCapacityBytes + " bytes");
        }
    }

    /** Defaults for everything but the capture. */
    public static AnalysisOptions of(Path capture) {
        return new AnalysisOptions(capture, null, null, null, null, null, DEFAULT_THRESHOLD_NS, null, null, null);
    }

    public AnalysisOptions withKeyLog(Path p) {
        return new AnalysisOptions(capture, p, qlog, events, clientLog, serverPort, thresholdNs, transferBytes, packetsCsv,
                pathCapacityBytes);
    }

    public AnalysisOptions withQlog(Path p) {
        return new AnalysisOptions(capture, keyLog, p, events, clientLog, serverPort, thresholdNs, transferBytes, packetsCsv,
                pathCapacityBytes);
    }

    public AnalysisOptions withEvents(Path p) {
        return new AnalysisOptions(capture, keyLog, qlog, p, clientLog, serverPort, thresholdNs, transferBytes, packetsCsv,
                pathCapacityBytes);
    }

    public AnalysisOptions withClientLog(Path p) {
        return new AnalysisOptions(capture, keyLog, qlog, events, p, serverPort, thresholdNs, transferBytes, packetsCsv,
                pathCapacityBytes);
    }

    public AnalysisOptions withServerPort(Integer port) {
        return new AnalysisOptions(capture, keyLog, qlog, events, clientLog, port, thresholdNs, transferBytes, packetsCsv,
                pathCapacityBytes);
    }

    public AnalysisOptions withThresholdNs(long ns) {
        return new AnalysisOptions(capture, keyLog, qlog, events, clientLog, serverPort, ns, transferBytes, packetsCsv,
                pathCapacityBytes);
    }

    public AnalysisOptions withTransferBytes(Long bytes) {
        return new AnalysisOptions(capture, keyLog, qlog, events, clientLog, serverPort, thresholdNs, bytes, packetsCsv,
                pathCapacityBytes);
    }

    public AnalysisOptions withPacketsCsv(Path p) {
        return new AnalysisOptions(capture, keyLog, qlog, events, clientLog, serverPort, thresholdNs, transferBytes, p,
                pathCapacityBytes);
    }

    public AnalysisOptions withPathCapacityBytes(Long bytes) {
        return new AnalysisOptions(capture, keyLog, qlog, events, clientLog, serverPort, thresholdNs, transferBytes, packetsCsv,
                bytes);
    }
}
