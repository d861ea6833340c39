package org.pacelab.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.analysis.summary.Summary;
import org.pacelab.analysis.summary.SummaryField;
import org.pacelab.analysis.summary.SummaryJson;

/**
 * Acceptance 3: the QUIC Steps study's send-strategy effects appear in simulation, judged from the analyzer's
 * summary.json of each run (the same metrics the study used: per-packet train lengths with the 0.1 ms threshold).
 * The hosts are a fixed quiet host ({@link TestHosts#quiet()}); the pacer releases one packet per send time
 * ({@code --quantum 1p}), as a per-packet SO_TXTIME sender does; the client acknowledges every 16 packets
 * ({@code --ack-threshold 16}, acknowledgement decimation), so each acknowledgement lets the sender release a
 * GSO buffer's worth of packets at once. (With an acknowledgement every two packets a window-limited sender
 * releases two packets at a time, whatever its GSO size.) Senders with send times get a 10 ms look-ahead.
 */
class StrategyEffectsTest {
    @TempDir
    Path dir;

    private Summary run(String name, String... options) throws Exception {
        Map<String, String> o = new LinkedHashMap<>();
        o.put("--size", "3MiB");
        o.put("--seed", "3");
        o.put("--quantum", "1p");
        o.put("--ack-threshold", "16");
        for (int i = 0; i < options.length; i += 2) {
            o.put(options[i], options[i + 1]);
        }
        SimScenario s = SimOptions.parse(o, dir.resolve(name));
        s = s.withHosts(s.server().withTiming(TestHosts.quiet()), s.client().withTiming(TestHosts.quiet()));
        SimResult r = Simulation.run(s);
        assertTrue(r.completed(), name + ": " + r.outcome());
        lastCounters = r.counters();
        return SummaryJson.read(dir.resolve(name).resolve("summary.json"));
    }

    private Map<String, Long> lastCounters;

    private static double number(Summary s, SummaryField f) {
        return ((Number) s.get(f)).doubleValue();
    }

    @Test
    void gsoBuffersWithOneSendTimeLeaveAsTrainsOfTheGsoSizeAndPerPacketSendTimesRemoveThem() throws Exception {
        Summary gso = run("gso16", "--gso", "16", "--txtime", "", "--qdisc", "fq", "--pacing-lookahead", "10ms");
        Summary perPacket = run("per-packet", "--txtime", "", "--qdisc", "fq", "--pacing-lookahead", "10ms");
        assertEquals(16, number(gso, SummaryField.PTL_PER_PACKET_P50), "a packet's train is its GSO buffer");
        assertTrue(number(gso, SummaryField.PTL_LE5_SHARE) < 0.2, "few packets outside 16-packet trains");
        // slow start paces faster than one packet per 0.1 ms, which the train threshold counts as trains
        assertTrue(number(perPacket, SummaryField.PTL_LE2_SHARE) > 0.8, "fq with per-packet send times: trains of at most 2");
        assertEquals(1, number(perPacket, SummaryField.PTL_PER_PACKET_P50));
    }

    @Test
    void pacedGsoMatchesGsoDisabledInTrainLengths() throws Exception {
        Summary paced = run("paced-gso", "--gso", "16", "--paced-gso", "", "--txtime", "", "--qdisc", "fq",
                "--pacing-lookahead", "10ms");
        Summary off = run("gso-off");
        assertEquals(1, number(paced, SummaryField.PTL_PER_PACKET_P50));
        assertEquals(1, number(off, SummaryField.PTL_PER_PACKET_P50));
        double le2Paced = number(paced, SummaryField.PTL_LE2_SHARE);
        double le2Off = number(off, SummaryField.PTL_LE2_SHARE);
        assertTrue(Math.abs(le2Paced - le2Off) < 0.1, "share in trains <= 2: paced GSO " + le2Paced + ", GSO off " + le2Off);
    }

    @Test
    void etfWithTooSmallADeltaDropsLatePackets() throws Exception {
        Summary small = run("etf-1us", "--txtime", "", "--qdisc", "etf", "--etf-delta", "1us", "--size", "1MiB");
        long expiredSmall = lastCounters.get("server_qdisc_etf_expired_drops");
        Summary enough = run("etf-300us", "--txtime", "", "--qdisc", "etf", "--etf-delta", "300us", "--size", "1MiB");
        long expiredEnough = lastCounters.get("server_qdisc_etf_expired_drops");
        assertTrue(expiredSmall > 100, "etf drops packets whose send time passes before its watchdog fires: " + expiredSmall);
        assertEquals(0, expiredEnough, "a delta above the timer's lateness loses nothing");
        assertTrue(number(small, SummaryField.RETRANSMISSIONS) >= 0.9 * expiredSmall, "the sender retransmits what etf dropped");
        assertEquals(0, number(small, SummaryField.DROPS), "the bottleneck dropped none of them");
        assertTrue(number(enough, SummaryField.RETRANSMISSIONS) < number(small, SummaryField.RETRANSMISSIONS));
    }
}
