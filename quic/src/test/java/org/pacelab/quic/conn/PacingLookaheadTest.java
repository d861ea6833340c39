package org.pacelab.quic.conn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.packet.PacketType;
import org.pacelab.quic.qlog.QlogSink;
import org.pacelab.quic.tls.TlsConfig;

/**
 * A pacing look-ahead (the runtime hands packets to an fq/etf qdisc before their intended send time) must not
 * change what the connection measures: a packet is sent when the qdisc sends it, at its intended time.
 */
class PacingLookaheadTest {
    private static final long ONE_WAY = 10_000_000L;
    private static final long LOOKAHEAD = 5_000_000L;

    private record Sent(long handedOver, long intended) {}

    private static final class Recorder implements QlogSink {
        final List<Long> rttSamples = new ArrayList<>();
        final List<Sent> sent = new ArrayList<>();
        long lastLatest = -1;

        @Override
        public boolean enabled() { return true; }

        @Override
        public void packetSent(long now, PacketType type, long packetNumber, int length, long intendedSendTime,
                               List<org.pacelab.quic.frame.Frame> frames) {
            if (type == PacketType.ONE_RTT) {
                sent.add(new Sent(now, intendedSendTime));
            }
        }

        @Override
        public void metricsUpdated(long now, long minRtt, long smoothedRtt, long latestRtt, long rttVariance,
                                   long congestionWindow, long bytesInFlight, long ssthresh, long pacingRate) {
            if (latestRtt > 0 && latestRtt != lastLatest) {
                rttSamples.add(latestRtt);
                lastLatest = latestRtt;
            }
        }
    }

    private static Recorder transfer(long lookahead) throws Exception {
        byte[] msg = new byte[2_000_000];
        new Random(2).nextBytes(msg);
        EchoApps.Client client = new EchoApps.Client(msg);
        CongestionConfig cc = CongestionConfig.fromOptions(Map.of("--cc", "cubic", "--pacer", "interval", "--quantum", "1p",
                "--max-pacing-rate", "20mbit"));
        Recorder rec = new Recorder();
        ConnectionConfig s = ConnectionPair.baseConfig(List.of("hq-interop"), TlsConfig.ALL_SUITES, false).withCongestion(cc)
                .withPacingLookahead(lookahead).withQlog(odcid -> rec);
        ConnectionConfig c = ConnectionPair.baseConfig(List.of("hq-interop"), TlsConfig.ALL_SUITES, true).withCongestion(cc);
        ConnectionPair pair = new ConnectionPair(client, new EchoApps.Server(), s, c, ONE_WAY, 3);
        pair.serverHonoursIntendedTimes = true;
        pair.start();
        assertTrue(pair.runUntil(client::done, 120_000_000_000L), "transfer did not complete");
        assertArrayEquals(msg, client.replies[0]);
        return rec;
    }

    private static double mean(List<Long> xs) {
        return xs.stream().mapToLong(Long::longValue).average().orElseThrow();
    }

    @Test
    void packetsGoOutEarlyButRttSamplesStayTheSame() throws Exception {
        Recorder ahead = transfer(LOOKAHEAD);
        Recorder punctual = transfer(0);
        long early = ahead.sent.stream().filter(p -> p.intended() > p.handedOver()).count();
        assertTrue(early > ahead.sent.size() / 4, "the look-ahead was used: " + early + " of " + ahead.sent.size());
        assertTrue(ahead.sent.stream().allMatch(p -> p.intended() - p.handedOver() <= LOOKAHEAD), "never more than the look-ahead early");
        // every packet leaves at its intended time in both runs (the link models fq), so the path's RTT is the same:
        // a packet timed from its early release would add up to the look-ahead to its sample
        long maxAhead = Collections.max(ahead.rttSamples);
        long maxPunctual = Collections.max(punctual.rttSamples);
        assertTrue(maxAhead <= maxPunctual, "largest RTT sample " + maxAhead / 1e6 + " ms with the look-ahead, "
                + maxPunctual / 1e6 + " ms without: packets released early were timed from their release");
        assertTrue(Math.abs(mean(ahead.rttSamples) - mean(punctual.rttSamples)) < 100_000, "mean RTT samples differ");
    }
}
