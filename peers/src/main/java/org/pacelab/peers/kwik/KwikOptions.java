package org.pacelab.peers.kwik;

import java.nio.file.Path;

/**
 * Settings of the Kwik peer (server and client). Kwik's congestion control is NewReno, hard-wired, and it does
 * not pace; it writes no qlog (that needs the separate kwik-qlog module, which pacelab does not ship), but its client
 * can keep Kwik's own text log ({@link #log()}).
 *
 * @param keyLog           NSS key log file (client only: Kwik's server cannot write one), or null
 * @param connectionWindow connection flow-control window (bytes)
 * @param streamWindow     per-stream flow-control window (bytes)
 * @param idleTimeoutMs    idle timeout in milliseconds
 * @param logPackets       print Kwik's own packet log on stdout; with {@code log} on a server: put packets, recovery,
 *                         congestion control and debug lines in that file instead
 * @param log              a client appends Kwik's log of each connection to this file ({@link KwikLogFile}); a server
 *                         its info, warnings and errors (and, with {@code logPackets}, its packets), written out when
 *                         it closes; or null
 */
public record KwikOptions(Path keyLog, long connectionWindow, long streamWindow, long idleTimeoutMs, boolean logPackets,
                          Path log) {
    public KwikOptions {
        if (connectionWindow < 1024 || streamWindow < 1024 || idleTimeoutMs < 1000) {
            throw new IllegalArgumentException("Kwik windows must be at least 1 KiB and the idle timeout at least 1 s");
        }
    }

    /** 16 MiB connection and 8 MiB stream windows, 30 s idle timeout, no logs. */
    public static KwikOptions defaults() {
        return new KwikOptions(null, 16L << 20, 8L << 20, 30_000, false, null);
    }

    public KwikOptions withKeyLog(Path file) {
        return new KwikOptions(file, connectionWindow, streamWindow, idleTimeoutMs, logPackets, log);
    }

    public KwikOptions withLogPackets(boolean packets) {
        return new KwikOptions(keyLog, connectionWindow, streamWindow, idleTimeoutMs, packets, log);
    }

    public KwikOptions withLog(Path file) {
        return new KwikOptions(keyLog, connectionWindow, streamWindow, idleTimeoutMs, logPackets, file);
    }
}
