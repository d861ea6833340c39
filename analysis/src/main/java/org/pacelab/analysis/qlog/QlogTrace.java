package org.pacelab.analysis.qlog;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * What pacelab uses from one qlog trace (one connection seen from one endpoint).
 *
 * @param file            the file it came from
 * @param vantagePoint    "server", "client" or "" when the trace does not say
 * @param connectionIds   lower-case hex connection IDs that name the connection (group_id, ODCID, original DCID)
 * @param referenceTimeMs the trace's reference time in ms since the Unix epoch, NaN when absent or 0
 * @param sent            1-RTT packet_sent events by packet number
 * @param packetsSent     packet_sent events of any packet type
 * @param packetsLost     recovery packet_lost events of any packet type
 * @param timeline        metrics_updated events
 * @param events          events read
 * @param notes           sentences about records that could not be used
 * @param fineSendTimes   whether most 1-RTT packet_sent times are finer than a whole millisecond, so that they can
 *                        stand for the send times of a stack that logs no intended send time (ngtcp2's are whole ms)
 * @param stateUpdates    congestion_state_updated events
 * @param startupEnd      when the sender's initial slow start (BBR: Startup) ended, or null when it never did
 * @param received        1-RTT packet_received events by packet number (only their event times,
 *                        {@link SentPackets#eventMs}): with the capture's times of the same packets they bound the
 *                        offset between the trace's clock and the capture's
 */
public record QlogTrace(Path file, String vantagePoint, Set<String> connectionIds, double referenceTimeMs,
                        SentPackets sent, long packetsSent, long packetsLost, CongestionTimeline timeline,
                        long events, List<String> notes, boolean fineSendTimes, long stateUpdates,
                        StartupEnd startupEnd, SentPackets received) {

    /** The event time {@code timeMs} (the trace's clock, ms) in ns since the epoch; 0 without a reference time. */
    public long epochNs(double timeMs) {
        long ref = referenceTimeNs();
        return ref == 0 ? 0 : ref + Math.round(timeMs * 1e6);
    }

    public boolean isServer() {
        return vantagePoint.equals("server");
    }

    /**
     * The reference time in ns since the epoch (0 when absent), computed from whole and fractional milliseconds
     * separately: a double holding epoch nanoseconds would round by up to 128 ns.
     */
    public long referenceTimeNs() {
        if (Double.isNaN(referenceTimeMs)) {
            return 0;
        }
        long wholeMs = (long) Math.floor(referenceTimeMs);
        return wholeMs * 1_000_000L + Math.round((referenceTimeMs - wholeMs) * 1e6);
    }
}
