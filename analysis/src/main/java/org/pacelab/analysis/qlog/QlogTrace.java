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
 */
public record QlogTrace(Path file, String vantagePoint, Set<String> connectionIds, double referenceTimeMs,
                        SentPackets sent, long packetsSent, long packetsLost, CongestionTimeline timeline,
                        long events, List<String> notes) {

    public boolean isServer() {
        return vantagePoint.equals("server");
    }
}
