package org.pacelab.peers.quiche;

import java.nio.file.Path;

import io.netty.handler.codec.quic.QuicCongestionControlAlgorithm;

/**
 * Transport settings of the quiche peer (server and client). quiche through Netty does not pace: Netty
 * ignores quiche's per-packet send time ({@code SendInfo.at}), so packets leave as soon as the window allows.
 *
 * @param congestion      quiche's congestion controller: RENO, CUBIC or BBR
 * @param hystart         HyStart++ in slow start (RENO and CUBIC)
 * @param gsoSegments     UDP GSO: up to this many packets per send (epoll transport); 0 or 1 = one packet per send
 * @param qlogDir         where quiche writes one qlog per connection, or null
 * @param keyLog          NSS key log file to append TLS secrets to, or null
 * @param maxUdpPayload   largest UDP payload quiche sends
 * @param idleTimeoutMs   idle timeout in milliseconds
 * @param connectionWindow initial connection flow-control window (bytes)
 * @param streamWindow    initial per-stream flow-control window (bytes)
 * @param maxStreams      bidirectional and unidirectional streams the peer may open
 */
public record QuicheOptions(QuicCongestionControlAlgorithm congestion, boolean hystart, int gsoSegments, Path qlogDir,
                            Path keyLog, int maxUdpPayload, long idleTimeoutMs, long connectionWindow, long streamWindow,
                            long maxStreams) {
    public QuicheOptions {
        if (congestion == null) {
            throw new IllegalArgumentException("congestion control must be one of RENO, CUBIC, BBR");
        }
        if (gsoSegments < 0 || gsoSegments > 64) {
            throw new IllegalArgumentException("GSO segments must be 0..64, not " + gsoSegments);
        }
        if (maxUdpPayload < 1200 || maxUdpPayload > 65527) {
            throw new IllegalArgumentException("max UDP payload must be 1200..65527 bytes, not " + maxUdpPayload);
        }
    }

    /** CUBIC with HyStart++, no GSO, no logs, 1452-byte payloads, 30 s idle timeout, 16 MiB / 8 MiB windows. */
    public static QuicheOptions defaults() {
        return new QuicheOptions(QuicCongestionControlAlgorithm.CUBIC, true, 0, null, null, 1452, 30_000,
                16L << 20, 8L << 20, 128);
    }

    public QuicheOptions withQlogDir(Path dir) {
        return new QuicheOptions(congestion, hystart, gsoSegments, dir, keyLog, maxUdpPayload, idleTimeoutMs,
                connectionWindow, streamWindow, maxStreams);
    }

    public QuicheOptions withKeyLog(Path file) {
        return new QuicheOptions(congestion, hystart, gsoSegments, qlogDir, file, maxUdpPayload, idleTimeoutMs,
                connectionWindow, streamWindow, maxStreams);
    }

    public QuicheOptions withCongestion(QuicCongestionControlAlgorithm cc, boolean hystartOn) {
        return new QuicheOptions(cc, hystartOn, gsoSegments, qlogDir, keyLog, maxUdpPayload, idleTimeoutMs,
                connectionWindow, streamWindow, maxStreams);
    }

    public QuicheOptions withGso(int segments) {
        return new QuicheOptions(congestion, hystart, segments, qlogDir, keyLog, maxUdpPayload, idleTimeoutMs,
                connectionWindow, streamWindow, maxStreams);
    }

    boolean gso() {
        return gsoSegments > 1;
    }
}
