package org.pacelab.quic.cc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.pacelab.quic.cc.Packets.MS;
import static org.pacelab.quic.cc.Packets.packet;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.cc.HyStartPlusPlus.Outcome;
import org.pacelab.quic.cc.HyStartPlusPlus.Phase;
import org.pacelab.quic.recovery.RttEstimator;

/**
 * RFC 9406 on scripted RTT series. Each scripted round r sends its round-end packet W_r and 8 more packets,
 * then receives one ACK per packet sent in round r-1 after W_{r-1} (8 samples) and finally the ACK of W_r,
 * which ends the round; all ACKs of round r carry the round's RTT. Round 1 has a single sample (W_1).
 */
class HyStartPlusPlusTest {
    private static final int MDS = 1200;

    /** Runs the scripted rounds and returns the outcome seen in each (1-based) round. */
    private static final class Script {
        final HyStartPlusPlus hs;
        long nextPn;
        List<PacketInfo> extras = new ArrayList<>();
        final List<List<Outcome>> outcomes = new ArrayList<>();

        Script(HyStartPlusPlus hs) {
            this.hs = hs;
        }

        void round(long rttMs) {
            List<Outcome> seen = new ArrayList<>();
            PacketInfo w = packet(nextPn++, 0, MDS);
            hs.onPacketSent(w);
            List<PacketInfo> sent = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                PacketInfo p = packet(nextPn++, 0, MDS);
                hs.onPacketSent(p);
                sent.add(p);
            }
            for (PacketInfo p : extras) {
                seen.add(hs.onAck(rttMs * MS, List.of(p)));
            }
            seen.add(hs.onAck(rttMs * MS, List.of(w)));
            extras = sent;
            outcomes.add(seen);
        }

        boolean saw(int round, Outcome o) {
            return outcomes.get(round - 1).contains(o);
        }
    }

    @Test
    void delayIncreaseEntersCssInTheRoundAndCssEndsAfterFiveRounds() {
        Script s = new Script(new HyStartPlusPlus(HyStartPlusPlus.INFINITE_L));
        // RttThresh = max(4 ms, min(100 ms / 8, 16 ms)) = 12.5 ms: 113 ms >= 100 + 12.5 in round 4
        long[] rtts = {100, 100, 100, 113, 113, 113, 113, 113};
        for (int r = 0; r < rtts.length; r++) {
            s.round(rtts[r]);
            if (r < 3) {
                assertEquals(Phase.SLOW_START, s.hs.phase(), "round " + (r + 1));
            }
        }
        assertTrue(s.saw(4, Outcome.ENTERED_CSS));
        // the ninth sample of round 4 is the first with 8 samples counted before it: entry on the 8th
        assertEquals(Outcome.ENTERED_CSS, s.outcomes.get(3).get(7));
        // CSS lasts CSS_ROUNDS = 5 rounds including the partial round 4: ends with round 8
        for (int r = 5; r <= 7; r++) {
            assertFalse(s.saw(r, Outcome.EXIT_TO_CONGESTION_AVOIDANCE), "round " + r);
        }
        assertTrue(s.saw(8, Outcome.EXIT_TO_CONGESTION_AVOIDANCE));
        assertEquals(Phase.DONE, s.hs.phase());
    }

    @Test
    void oneCssRoundEndsSlowStartAtTheEndOfTheRoundThatEnteredCss() {
        Script s = new Script(new HyStartPlusPlus(HyStartPlusPlus.INFINITE_L, 1));
        long[] rtts = {100, 100, 100, 113, 113};
        for (long rtt : rtts) {
            s.round(rtt);
        }
        assertTrue(s.saw(4, Outcome.ENTERED_CSS));
        // the partial round of entry counts (§4.2): with CSS_ROUNDS = 1 its end is the exit
        assertTrue(s.saw(4, Outcome.EXIT_TO_CONGESTION_AVOIDANCE));
        assertEquals(Phase.DONE, s.hs.phase());
        assertEquals(1, s.hs.cssRoundsLimit());
    }

    @Test
    void increaseBelowTheThresholdStaysInSlowStart() {
        Script s = new Script(new HyStartPlusPlus(HyStartPlusPlus.INFINITE_L));
        for (long rtt : new long[] {100, 100, 112, 112, 124}) {      // each step 12 ms < 12.5 ms
            s.round(rtt);
        }
        assertEquals(Phase.SLOW_START, s.hs.phase());
    }

    @Test
    void thresholdIsClampedBetween4And16Ms() {
        // 20 ms / 8 = 2.5 ms -> 4 ms: 24 ms triggers, 23.9 would not
        Script low = new Script(new HyStartPlusPlus(HyStartPlusPlus.INFINITE_L));
        for (long rtt : new long[] {20, 20, 24}) {
            low.round(rtt);
        }
        assertTrue(low.saw(3, Outcome.ENTERED_CSS));
        // 200 ms / 8 = 25 ms -> 16 ms: 215 ms does not trigger, 216 ms does
        Script high = new Script(new HyStartPlusPlus(HyStartPlusPlus.INFINITE_L));
        for (long rtt : new long[] {200, 200, 215, 231}) {
            high.round(rtt);
        }
        assertFalse(high.saw(3, Outcome.ENTERED_CSS));
        assertTrue(high.saw(4, Outcome.ENTERED_CSS));
    }

    @Test
    void lowerRttInCssResumesSlowStart() {
        Script s = new Script(new HyStartPlusPlus(HyStartPlusPlus.INFINITE_L));
        for (long rtt : new long[] {100, 100, 113}) {
            s.round(rtt);
        }
        assertEquals(Phase.CONSERVATIVE_SLOW_START, s.hs.phase());
        s.round(112);                                       // round minimum 112 < baseline 113
        assertTrue(s.saw(4, Outcome.RESUMED_SLOW_START));
        assertEquals(Phase.SLOW_START, s.hs.phase());
        assertEquals(0, s.hs.cssRounds());
        // and HyStart++ keeps running: 112 -> 125 is another increase of at least 14 ms
        s.round(112);
        s.round(126);
        assertTrue(s.saw(6, Outcome.ENTERED_CSS));
    }

    @Test
    void growthIsLimitedToLSegmentsPerAckAndQuarteredInCss() {
        HyStartPlusPlus hs = new HyStartPlusPlus(HyStartPlusPlus.NON_PACED_L);
        hs.beginAck(MDS);
        long total = 0;
        for (int i = 0; i < 20; i++) {
            total += hs.increase(MDS);
        }
        assertEquals(8L * MDS, total);
        // in CSS: min(N, L*SMSS) / 4
        Script s = new Script(hs);
        for (long rtt : new long[] {100, 100, 113}) {
            s.round(rtt);
        }
        assertTrue(hs.inCss());
        hs.beginAck(MDS);
        long css = 0;
        for (int i = 0; i < 20; i++) {
            css += hs.increase(MDS);
        }
        assertEquals(8L * MDS / 4, css);
    }

    @Test
    void newRenoLeavesSlowStartWithSsthreshEqualToCwnd() {
        HyStartPlusPlus hs = new HyStartPlusPlus(HyStartPlusPlus.INFINITE_L);
        NewRenoController cc = new NewRenoController(MDS, hs);
        long pn = 0;
        long now = 0;
        // HyStart++ rounds lag these flights by one packet (a round ends when its first packet is acknowledged),
        // so CSS starts in the fourth round and ends with the eighth, during the ninth flight
        long[] rtts = {100, 100, 113, 113, 113, 113, 113, 113, 113};
        List<PacketInfo> previous = new ArrayList<>();
        long cwndAtExit = -1;
        for (long rttMs : rtts) {
            // a round: send a window's worth, ACK the previous round's packets one by one
            List<PacketInfo> sent = new ArrayList<>();
            long window = cc.congestionWindow() / MDS;
            for (int i = 0; i < window; i++) {
                PacketInfo p = packet(pn++, now, MDS);
                cc.onPacketSent(now, p, 0);
                sent.add(p);
            }
            now += rttMs * MS;
            RttEstimator rtt = Packets.rtt(rttMs * MS);
            for (PacketInfo p : sent) {
                cc.onAck(Packets.ack(now, List.of(p), rtt));
                if (hs.phase() == Phase.DONE && cwndAtExit < 0) {
                    cwndAtExit = cc.congestionWindow();
                    assertEquals(cwndAtExit, cc.slowStartThreshold());
                }
            }
            previous = sent;
        }
        assertEquals(Phase.DONE, hs.phase());
        assertTrue(cwndAtExit > 0);
        assertEquals(cwndAtExit, cc.slowStartThreshold());
        assertTrue(cc.congestionWindow() > cwndAtExit, "grows in congestion avoidance afterwards");
        assertEquals("congestion_avoidance", cc.state());
        assertFalse(previous.isEmpty());
    }
}
