package org.pacelab.quic.cc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.pacelab.quic.cc.BbrPath.MDS;
import static org.pacelab.quic.cc.BbrPath.MS;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

/**
 * BBRv3 on scripted paths (see {@link BbrPath}): the state machine of draft-ietf-ccwg-bbr, its gains, its
 * model estimates and its loss response.
 */
class BbrV3ControllerTest {
    private static final long RATE = 1_250_000;                        // 10 Mbit/s
    private static final long MIN_RTT = 40 * MS + MDS * 1_000_000_000L / RATE;   // propagation + serialization

    /** Pacing and cwnd gain per state: the table of §"Summary of Control Behavior in the State Machine". */
    private static final Map<BbrState, double[]> GAINS = Map.of(
            BbrState.STARTUP, new double[] {4 * Math.log(2), 2.0},
            BbrState.DRAIN, new double[] {0.5, 2.0},
            BbrState.PROBE_BW_DOWN, new double[] {0.90, 2.0},
            BbrState.PROBE_BW_CRUISE, new double[] {1.0, 2.0},
            BbrState.PROBE_BW_REFILL, new double[] {1.0, 2.0},
            BbrState.PROBE_BW_UP, new double[] {1.25, 2.25},
            BbrState.PROBE_RTT, new double[] {1.0, 0.5});

    @Test
    void movesThroughStartupDrainProbeBwAndProbeRtt() {
        BbrPath path = new BbrPath(t -> RATE, 40 * MS, Integer.MAX_VALUE);
        path.run(7000 * MS);
        for (BbrPath.Transition t : path.transitions) {
            assertEquals(GAINS.get(t.state())[0], t.pacingGain(), 1e-12, t.toString());
            assertEquals(GAINS.get(t.state())[1], t.cwndGain(), 1e-12, t.toString());
        }
        assertEquals(BbrState.STARTUP, path.transitions.get(0).state());
        assertEquals(BbrState.DRAIN, path.transitions.get(1).state());
        assertTrue(path.transitions.get(2).state().isProbeBw());
        assertTrue(path.bbr.fullBwReached());
        assertEquals("bandwidth_plateau", path.bbr.startupExit());
        // the model: max_bw within 2 % of the bottleneck (the draft's first test case), min_rtt exact
        assertEquals(RATE, path.bbr.maxBw(), RATE * 0.02);
        assertEquals(MIN_RTT, path.bbr.minRtt());
        // a full ProbeBW cycle: REFILL, UP, DOWN, CRUISE after the first entry into ProbeBW
        long probeBw = path.transitions.get(2).time();
        long refill = path.firstEntry(BbrState.PROBE_BW_REFILL, probeBw);
        long up = path.firstEntry(BbrState.PROBE_BW_UP, refill);
        long down = path.firstEntry(BbrState.PROBE_BW_DOWN, up);
        long cruise = path.firstEntry(BbrState.PROBE_BW_CRUISE, down);
        assertTrue(refill > 0 && up > refill && down > up && cruise > down, path.transitions.toString());
        // ProbeBW waits 2 to 3 s (or the Reno coexistence rounds) before probing again
        assertTrue(refill - probeBw <= 3000 * MS, "first probe after " + (refill - probeBw) / MS + " ms");
        // ProbeRTT: min_rtt was last lowered by the first ACK (about 41 ms), so it is due 5 s later
        long probeRtt = path.firstEntry(BbrState.PROBE_RTT, 0);
        assertTrue(probeRtt > 5000 * MS && probeRtt < 5000 * MS + 2 * MIN_RTT, "ProbeRTT at " + probeRtt / MS + " ms");
        long leftProbeRtt = path.exitAfter(probeRtt);
        assertTrue(leftProbeRtt - probeRtt >= 200 * MS, "ProbeRTT lasted " + (leftProbeRtt - probeRtt) / MS + " ms");
        assertEquals(BbrState.PROBE_BW_CRUISE, path.transitions.stream()
                .filter(t -> t.time() == leftProbeRtt).findFirst().orElseThrow().state());
        long bdp = RATE * MIN_RTT / 1_000_000_000L;
        assertTrue(Collections.min(path.cwndDuringProbeRtt) <= Math.max(bdp / 2, 4L * MDS),
                "ProbeRTT bounds cwnd to max(BDP/2, 4 packets)");
    }

    @Test
    void findsAHigherBottleneckRateInProbeBwUp() {
        BbrPath path = new BbrPath(t -> t < 3000 * MS ? RATE : 2 * RATE, 40 * MS, Integer.MAX_VALUE);
        path.run(3000 * MS);
        assertEquals(RATE, path.bbr.maxBw(), RATE * 0.02);
        path.run(7000 * MS);
        assertTrue(path.firstEntry(BbrState.PROBE_BW_UP, 3000 * MS) > 0);
        assertEquals(2 * RATE, path.bbr.maxBw(), 2 * RATE * 0.02);
        assertTrue(path.bbr.pacingRate() >= 0.9 * 0.99 * 2 * RATE * 0.98);
    }

    @Test
    void lossInAShallowBufferSetsInflightLongtermNearBdpPlusBuffer() {
        int buffer = 10;
        BbrPath path = new BbrPath(t -> RATE, 40 * MS, buffer);
        path.run(7000 * MS);
        assertTrue(path.drops > 0);
        assertTrue(path.bbr.fullBwReached());
        assertEquals("loss", path.bbr.startupExit());
        long bdp = RATE * MIN_RTT / 1_000_000_000L;
        long longterm = path.bbr.inflightLongterm();
        assertTrue(longterm >= bdp && longterm <= 1.1 * (bdp + (long) buffer * MDS),
                "inflight_longterm " + longterm + " for BDP " + bdp);
        assertEquals(RATE, path.bbr.maxBw(), RATE * 0.02);
        // losses were few: the model keeps the flow near the path's capacity
        assertTrue(path.drops < 200, path.drops + " drops");
    }

    /**
     * §"Exiting Startup Based on Packet Loss": Startup leaves on loss only after a full packet-timed round in
     * recovery with a loss rate above 2% in at least 6 discontiguous ranges, not at the first loss event, and sets
     * inflight_longterm to max(bdp, inflight_latest).
     */
    @Test
    void startupLeavesOnLossOnlyAfterAFullLossRound() {
        BbrPath path = new BbrPath(t -> RATE, 40 * MS, 10);
        path.runUntil(7000 * MS, BbrState.DRAIN);
        assertEquals("loss", path.bbr.startupExit());
        long drain = path.firstEntry(BbrState.DRAIN, 0);
        long firstLoss = path.losses.getFirst().time();
        // the round ends when a packet sent after the first loss was declared is acknowledged
        assertTrue(drain >= firstLoss + MIN_RTT,
                "Drain at " + drain / MS + " ms, first loss declared at " + firstLoss / MS + " ms");
        List<PacketInfo> lost = path.losses.stream().filter(l -> l.time() <= drain).map(BbrPath.Loss::packet).toList();
        int ranges = 0;
        for (int i = 0; i < lost.size(); i++) {
            if (i == 0 || lost.get(i).packetNumber() != lost.get(i - 1).packetNumber() + 1) {
                ranges++;
            }
        }
        assertTrue(ranges >= BbrV3Controller.STARTUP_FULL_LOSS_COUNT, ranges + " ranges");
        long bdp = RATE * MIN_RTT / 1_000_000_000L;
        assertTrue(path.bbr.inflightLongterm() >= bdp, "inflight_longterm " + path.bbr.inflightLongterm());
    }

    /**
     * §"Probing for Bandwidth In ProbeBW" (HandleLostPacket, IsInflightTooHigh per lost packet): ProbeBW_UP ends at
     * the first loss event in which a lost packet P has (C.lost - P.lost) > 2% of P.tx_in_flight, without waiting
     * for the round to end, and inflight_longterm comes down to no more than the C.inflight at which P was sent.
     */
    @Test
    void probeBwUpEndsOnTheLossEventThatTakesTheLossRateAboveTwoPercent() {
        BbrPath path = new BbrPath(t -> RATE, 40 * MS, 10);
        path.runUntil(3000 * MS, BbrState.DRAIN);
        int endedByLoss = 0;
        while (path.now < 12_000 * MS) {
            path.runUntil(12_000 * MS, BbrState.PROBE_BW_UP);
            if (path.bbr.bbrState() != BbrState.PROBE_BW_UP) {
                break;
            }
            long up = path.now;
            int seen = path.losses.size();
            path.runUntil(12_000 * MS, BbrState.PROBE_BW_DOWN);
            if (path.bbr.bbrState() != BbrState.PROBE_BW_DOWN) {
                break;
            }
            long end = path.now;
            Optional<BbrPath.Loss> crossing = path.losses.subList(seen, path.losses.size()).stream()
                    .filter(l -> l.time() > up)
                    .filter(l -> l.lostAfter() - l.packet().lostBefore() > 0.02 * l.packet().txInFlight())
                    .findFirst();
            if (crossing.isEmpty()) {
                continue;   // ended by the bandwidth plateau or the precautionary check
            }
            endedByLoss++;
            assertEquals(crossing.get().time(), end, "ProbeBW_UP of " + up / MS + " ms ends on the crossing loss");
            assertTrue(path.bbr.inflightLongterm() <= crossing.get().packet().txInFlight(),
                    "inflight_longterm " + path.bbr.inflightLongterm() + " above P.tx_in_flight "
                            + crossing.get().packet().txInFlight());
        }
        assertTrue(endedByLoss >= 1, "no ProbeBW_UP ended on loss");
    }

    /**
     * §"ProbeBW Algorithm Details" (InflightWithHeadroom): in ProbeBW_CRUISE cwnd leaves BBR.Headroom (15%) of
     * inflight_longterm free.
     */
    @Test
    void probeBwCruiseLeavesHeadroomBelowInflightLongterm() {
        BbrPath path = new BbrPath(t -> RATE, 40 * MS, 10);
        path.runUntil(3000 * MS, BbrState.DRAIN);
        int checked = 0;
        while (path.now < 8000 * MS) {
            path.run(path.now + MS);
            if (path.bbr.bbrState() == BbrState.PROBE_BW_CRUISE) {
                long hi = path.bbr.inflightLongterm();
                long withHeadroom = Math.max(hi - Math.max(MDS, (long) (0.15 * hi)), 4L * MDS);
                assertTrue(path.bbr.congestionWindow() <= withHeadroom,
                        "cwnd " + path.bbr.congestionWindow() + " above " + withHeadroom + " at " + path.now / MS + " ms");
                checked++;
            }
        }
        assertTrue(checked > 100, checked + " samples in ProbeBW_CRUISE");
    }

    @Test
    void spuriousLossEpisodeUndoesTheLossBasedStartupExit() {
        BbrPath path = new BbrPath(t -> RATE, 40 * MS, 10);
        path.runUntil(7000 * MS, BbrState.DRAIN);
        assertEquals(BbrState.DRAIN, path.bbr.bbrState());
        assertEquals("loss", path.bbr.startupExit());
        // every packet declared lost turns out to have been delivered (e.g. it was only reordered)
        for (PacketInfo p : path.lostPackets) {
            path.bbr.onSpuriousLoss(path.now, p);
        }
        assertEquals(BbrState.STARTUP, path.bbr.bbrState());
        assertTrue(!path.bbr.fullBwReached());
    }

    private static QueueOnset onset() {
        return new QueueOnset(QueueOnset.DEFAULT_MIN_DELAY, true);
    }

    /**
     * {@code --slow-start onset}: the queue's onset ends Startup before any loss and bounds inflight_longterm as the
     * draft's loss exit does (at least the BDP; here no more than BDP + buffer, which no loss told it), and the first
     * ProbeBW cycle probes at once instead of waiting 2 to 3 s (§"Time Scale for Bandwidth Probing").
     */
    @Test
    void onsetEndsStartupWithABoundAndProbesAtOnce() {
        int buffer = 40;                                                 // about 1 BDP
        BbrPath path = new BbrPath(t -> RATE, 40 * MS, buffer, onset());
        path.runUntil(3000 * MS, BbrState.DRAIN);
        assertEquals("queue_onset", path.bbr.startupExit());
        assertEquals(0, path.drops);
        long bdp = RATE * MIN_RTT / 1_000_000_000L;
        long longterm = path.bbr.inflightLongterm();
        assertTrue(longterm >= bdp && longterm <= bdp + (long) buffer * MDS,
                "inflight_longterm " + longterm + " for BDP " + bdp);
        path.run(3000 * MS);
        long probeBw = path.transitions.stream().filter(t -> t.state().isProbeBw()).findFirst().orElseThrow().time();
        long refill = path.firstEntry(BbrState.PROBE_BW_REFILL, probeBw);
        assertTrue(refill >= 0 && refill - probeBw <= 2 * MIN_RTT,
                "first REFILL " + (refill - probeBw) / MS + " ms after ProbeBW began");
        // the draft waits: the same path without the onset
        BbrPath draft = new BbrPath(t -> RATE, 40 * MS, Integer.MAX_VALUE);
        draft.run(3000 * MS);
        long draftProbeBw = draft.transitions.stream().filter(t -> t.state().isProbeBw()).findFirst().orElseThrow()
                .time();
        long draftRefill = draft.firstEntry(BbrState.PROBE_BW_REFILL, draftProbeBw);
        assertTrue(draftRefill < 0 || draftRefill - draftProbeBw > 10 * MIN_RTT,
                "the draft's first REFILL " + (draftRefill - draftProbeBw) / MS + " ms after ProbeBW began");
    }

    /**
     * {@code --slow-start onset} on a fixed rate and a 0.5 BDP buffer: once the first probe after the exit is over,
     * every ProbeBW_UP ends at the queue's onset (its delivery rate cannot grow), none returns to Startup, and no packet
     * is lost in 12 s (without the bound, ProbeBW_CRUISE's 2 BDP window overflows such a buffer).
     */
    @Test
    void onsetEndsEachProbeOnAFixedRateWithoutALoss() {
        BbrPath path = new BbrPath(t -> RATE, 40 * MS, 20, onset());
        path.runUntil(3000 * MS, BbrState.PROBE_BW_CRUISE);
        assertEquals(BbrState.PROBE_BW_CRUISE, path.bbr.bbrState());
        long cruise = path.now;
        long drops = path.drops;
        int restarts = path.bbr.queueOnsetRestarts();
        int ends = path.bbr.queueOnsetProbeEnds();
        path.run(12_000 * MS);
        assertEquals(drops, path.drops, "drops after the first probe");
        long ups = path.transitions.stream().filter(t -> t.time() > cruise && t.state() == BbrState.PROBE_BW_UP).count();
        assertTrue(ups >= 3, ups + " probes");
        assertEquals(ups, path.bbr.queueOnsetProbeEnds() - ends + (path.bbr.bbrState() == BbrState.PROBE_BW_UP ? 1 : 0));
        assertEquals(restarts, path.bbr.queueOnsetRestarts());
        assertEquals(-1, path.firstEntry(BbrState.STARTUP, cruise));
        assertEquals(RATE, path.bbr.maxBw(), RATE * 0.02);
    }

    /**
     * {@code --slow-start onset} on a fixed rate and a 4 BDP buffer: the onset's bound (the BDP and the queue of the
     * onset's run of samples) is not where the path loses, and the onset ends each ProbeBW_UP before the draft's upward probing raises it, so each probe
     * the onset ends multiplies it by {@link BbrV3Controller#ONSET_BOUND_GROWTH} while no loss has set it; without
     * that, CRUISE runs at 0.85 of the onset's bound for the whole transfer.
     */
    @Test
    void onsetBoundGrowsWithEachProbeTheOnsetEnds() {
        int buffer = 160;
        BbrPath path = new BbrPath(t -> RATE, 40 * MS, buffer, onset());
        path.runUntil(3000 * MS, BbrState.PROBE_BW_CRUISE);
        long bound = path.bbr.inflightLongterm();
        long bdp = RATE * MIN_RTT / 1_000_000_000L;
        assertTrue(bound < bdp + (long) buffer * MDS / 2, "the onset's bound " + bound + " for BDP " + bdp);
        int ends = path.bbr.queueOnsetProbeEnds();
        path.run(15_000 * MS);
        int probes = path.bbr.queueOnsetProbeEnds() - ends;
        assertTrue(probes >= 3, probes + " probes ended by the onset");
        assertEquals(0, path.drops);
        double grown = bound * Math.pow(BbrV3Controller.ONSET_BOUND_GROWTH, probes) - probes;
        assertTrue(path.bbr.inflightLongterm() >= grown,
                "inflight_longterm " + path.bbr.inflightLongterm() + " after " + probes + " probes from " + bound);
        assertTrue(path.bbr.inflightLongterm() >= 3 * bound, "inflight_longterm " + path.bbr.inflightLongterm());
    }

    /**
     * {@code --slow-start onset} with a loss in Startup's last round (one packet dropped, sent just before the onset
     * ends Startup): the early probe waits until that loss's recovery period is over, so no loss of Startup's counts in
     * the probe's loss rate (C.lost - P.lost, which counts every loss since P was sent) and sets inflight_longterm
     * below the BDP plus the buffer, where CRUISE would leave the link idle.
     */
    @Test
    void onsetProbeWaitsForTheEndOfStartupsRecovery() {
        // on this path the onset's first exit comes early, the first probe finds bandwidth and BBR returns to Startup;
        // the onset ends that Startup again: drop the packet sent 30 ms before that exit, declared lost in Drain
        BbrPath first = new BbrPath(t -> RATE, 40 * MS, 40, onset());
        first.run(1500 * MS);
        long exit = first.transitions.stream().filter(t -> t.state() == BbrState.DRAIN).mapToLong(BbrPath.Transition::time)
                .max().orElseThrow();
        BbrPath clean = new BbrPath(t -> RATE, 40 * MS, 40, onset());
        clean.run(exit - 30 * MS);
        long pn = clean.estimator.delivered() / MDS + clean.inflight / MDS;
        BbrPath path = new BbrPath(t -> RATE, 40 * MS, 40, onset());
        path.forcedDrops.add(pn);
        path.run(1500 * MS);
        assertEquals("queue_onset", path.bbr.startupExit());
        assertEquals(1, path.losses.size(), "the placed loss only");
        long declared = path.losses.get(0).time();
        long drain = path.transitions.stream().filter(t -> t.state() == BbrState.DRAIN && t.time() < declared)
                .mapToLong(BbrPath.Transition::time).max().orElseThrow();
        long down = path.firstEntry(BbrState.PROBE_BW_DOWN, drain);
        assertTrue(down < 0 || declared < down, "the loss declared at " + declared / MS + " ms, after Drain ended");
        long refill = path.firstEntry(BbrState.PROBE_BW_REFILL, drain);
        assertTrue(refill > 0, path.transitions.toString());
        assertTrue(refill >= declared + MIN_RTT, "REFILL at " + refill / MS + " ms, the loss declared at "
                + declared / MS + " ms");
    }

    /**
     * {@code --slow-start onset} when the bottleneck's rate doubles: the next ProbeBW_UP's own delivery rate samples
     * pass 9/8 of max_bw before the queue's onset, so BBR returns to Startup, leaves it again at the new rate's onset
     * and runs at the new rate.
     */
    @Test
    void onsetProbeThatFindsBandwidthReturnsToStartup() {
        BbrPath path = new BbrPath(t -> t < 1000 * MS ? RATE : 2 * RATE, 40 * MS, 40, onset());
        path.run(1000 * MS);
        assertEquals(RATE, path.bbr.maxBw(), RATE * 0.02);
        path.run(6000 * MS);
        assertTrue(path.bbr.queueOnsetRestarts() >= 1, "no return to Startup");
        long again = path.firstEntry(BbrState.STARTUP, 1000 * MS);
        assertTrue(again > 1000 * MS, path.transitions.toString());
        assertTrue(path.firstEntry(BbrState.DRAIN, again) > again, "Startup did not end again");
        assertEquals(2 * RATE, path.bbr.maxBw(), 2 * RATE * 0.02);
        assertEquals(0, path.drops);
    }

    /**
     * {@code --slow-start onset} on a fixed rate and a 0.5 BDP buffer: the flow keeps no standing queue, so its RTT
     * samples come back within the onset's threshold of min_rtt, each renewing probe_rtt_min_stamp, and it never
     * enters ProbeRTT in 12 s; the draft on the same path enters it (its stamp moves only with a lower sample).
     */
    @Test
    void onsetSkipsProbeRttWhileTheFlowKeepsNoQueue() {
        BbrPath path = new BbrPath(t -> RATE, 40 * MS, 20, onset());
        path.run(12_000 * MS);
        assertEquals(-1, path.firstEntry(BbrState.PROBE_RTT, 0), path.transitions.toString());
        assertEquals(MIN_RTT, path.bbr.minRtt());
        assertTrue(path.transitions.stream().anyMatch(t -> t.state() == BbrState.PROBE_BW_UP && t.time() > 6000 * MS),
                "still probing for bandwidth: " + path.transitions);
        BbrPath draft = new BbrPath(t -> RATE, 40 * MS, 20);
        draft.run(12_000 * MS);
        long probeRtt = draft.firstEntry(BbrState.PROBE_RTT, 0);
        assertTrue(probeRtt > 5000 * MS, "the draft's ProbeRTT at " + probeRtt / MS + " ms");
    }

    /**
     * {@code --slow-start onset} when the propagation delay rises from 40 to 60 ms at 2 s: no sample comes back near
     * the old minimum any more, so the stamp is not renewed, ProbeRTT comes 5 s after the last such sample, as the
     * draft's, and min_rtt takes the new delay when its 10 s filter expires.
     */
    @Test
    void onsetStillProbesRttWhenThePathsMinimumRises() {
        BbrPath path = new BbrPath(t -> RATE, 40 * MS, 40, onset());
        path.propagationDelay = t -> t < 2000 * MS ? 40 * MS : 60 * MS;
        path.run(13_000 * MS);
        long probeRtt = path.firstEntry(BbrState.PROBE_RTT, 0);
        assertTrue(probeRtt > 6000 * MS && probeRtt < 7000 * MS + 2 * MIN_RTT, "ProbeRTT at " + probeRtt / MS + " ms: "
                + path.transitions);
        assertTrue(path.bbr.minRtt() >= 60 * MS, "min_rtt " + path.bbr.minRtt() / 1e6 + " ms");
    }

    /**
     * {@code --slow-start onset} on 100 Mbit/s × 40 ms (BDP 417 packets) with a flow-control window of 300 packets,
     * credited 150 at a time: Startup's pacing sends each credit in a burst at about 2.8 × the rate the window allows,
     * faster than the bottleneck, so a queue forms though the pipe is not full. Those samples are app-limited, and as
     * the draft's plateau check ignores them so does the onset: Startup goes on, as the draft's does. Once the window
     * is large the onset ends Startup as usual.
     */
    @Test
    void onsetIgnoresTheQueueOfAnAppLimitedStartup() {
        long rate = 10 * RATE;
        BbrPath path = new BbrPath(t -> rate, 40 * MS, 200, onset());
        path.flowControlWindow = 300L * MDS;
        path.run(1500 * MS);
        assertTrue(path.samples.stream().skip(path.samples.size() / 2).allMatch(RateSample::isAppLimited));
        assertEquals(BbrState.STARTUP, path.bbr.bbrState(), path.transitions.toString());
        assertEquals(null, path.bbr.startupExit());
        BbrPath draft = new BbrPath(t -> rate, 40 * MS, 200);
        draft.flowControlWindow = 300L * MDS;
        draft.run(1500 * MS);
        assertEquals(BbrState.STARTUP, draft.bbr.bbrState(), "the draft's Startup under the same window");
        path.flowControlWindow = Long.MAX_VALUE / 2;
        path.run(4000 * MS);
        draft.flowControlWindow = Long.MAX_VALUE / 2;
        draft.run(4000 * MS);
        assertEquals("queue_onset", path.bbr.startupExit());
        assertTrue(path.drops < draft.drops, path.drops + " drops, the draft's " + draft.drops);
        assertEquals(rate, path.bbr.maxBw(), rate * 0.02);
    }

    /**
     * {@code --slow-start onset} on 100 Mbit/s × 40 ms where the first packets' RTT is 1.33 ms shorter than every
     * later packet's (in the simulator: the pacer's 2-packet quanta, whose second packet waits one serialization at the
     * bottleneck, 1.16 ms at 10 Mbit/s, while min_rtt comes from a packet that did not wait): every sample is then
     * above the onset's threshold (1.28 ms) without a queue. Startup's onset counts only beyond one datagram's
     * serialization at bw more, so Startup ends at the real queue, as on the same path without the offset, not at the
     * first 8 samples with the window at 16 packets.
     */
    @Test
    void onsetInStartupAllowsOneDatagramOfQueue() {
        long rate = 10 * RATE;
        BbrPath path = new BbrPath(t -> rate, 40 * MS, 200, onset());
        path.propagationDelay = t -> t < 2 * MS ? 40 * MS : 40 * MS + 1_330_000L;
        path.runUntil(3000 * MS, BbrState.DRAIN);
        assertEquals("queue_onset", path.bbr.startupExit());
        // the same path without the shorter first RTT: Startup ends in the same round (the offset adds to the queue)
        BbrPath clean = new BbrPath(t -> rate, 40 * MS + 1_330_000L, 200, onset());
        clean.runUntil(3000 * MS, BbrState.DRAIN);
        assertTrue(path.bbr.maxBw() >= 0.8 * clean.bbr.maxBw() && path.now >= clean.now - MIN_RTT,
                "Startup ended at " + path.now / MS + " ms, max_bw " + path.bbr.maxBw() + ", without the offset at "
                        + clean.now / MS + " ms, " + clean.bbr.maxBw());
    }

    /**
     * {@code --slow-start onset} when the bottleneck's rate doubles at 1 s and the buffer is deep: the next
     * ProbeBW_UP's own delivery rate samples pass 9/8 of max_bw within its first rounds of feedback, and BBR returns to
     * Startup then, without waiting for a queue's onset (at 1.25 × the old rate on a doubled link none forms).
     */
    @Test
    void onsetProbeReturnsToStartupOnceItsSamplesGrow() {
        BbrPath path = new BbrPath(t -> t < 1000 * MS ? RATE : 2 * RATE, 40 * MS, 200, onset());
        path.run(6000 * MS);
        long up = path.firstEntry(BbrState.PROBE_BW_UP, 1000 * MS);
        long again = path.firstEntry(BbrState.STARTUP, 1000 * MS);
        assertTrue(up > 0 && again > up, path.transitions.toString());
        assertTrue(again - up <= 4 * MIN_RTT, "Startup " + (again - up) / MS + " ms after the probe began");
        assertEquals(2 * RATE, path.bbr.maxBw(), 2 * RATE * 0.02);
    }

    @Test
    void exposesItsPacingRateAndSendQuantum() {
        BbrPath path = new BbrPath(t -> RATE, 40 * MS, Integer.MAX_VALUE);
        path.run(2000 * MS);
        // in ProbeBW: pacing_rate = pacing_gain * bw * 0.99, quantum = pacing_rate * 1 ms bounded by 2 mds
        double expected = path.bbr.pacingGain() * path.bbr.bw() * 0.99;
        assertEquals(expected, path.bbr.pacingRate(), expected * 0.011);
        assertEquals(Math.max(path.bbr.pacingRate() / 1000, 2L * MDS), path.bbr.sendQuantum());
        assertEquals("bbr", path.bbr.name());
        assertEquals(path.bbr.bbrState().qlogName(), path.bbr.qlogState().get("bbr_state"));
    }
}
