package org.pacelab.net.dc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.pacelab.net.link.DropCause;
import org.pacelab.net.link.Packet;

/** The receive operation of 3GPP TS 38.323 §5.2.2, step by step with a fake clock. */
class PdcpReceiverTest {
    private static final long MS = 1_000_000L;
    private static final long T = 200 * MS;

    /** Records what the receiver does; packet ids are the COUNTs the test sent. */
    static final class Log implements PdcpReceiver.Output {
        final List<Long> delivered = new ArrayList<>();
        final List<Long> deliveredAt = new ArrayList<>();
        final List<Long> heldIds = new ArrayList<>();
        final List<String> discarded = new ArrayList<>();
        final List<Long> expiries = new ArrayList<>();
        long longestWait;

        @Override public void deliver(Packet p, int path, long arrivedAt, long time) {
            delivered.add(p.id());
            deliveredAt.add(time);
            longestWait = Math.max(longestWait, time - arrivedAt);
        }
        @Override public void hold(Packet p, int path, long time, int heldNow) { heldIds.add(p.id()); }
        @Override public void discard(Packet p, int path, long time, DropCause cause) { discarded.add(p.id() + ":" + cause); }
        @Override public void timerExpired(long time, long rxReord, int heldNow) { expiries.add(time); }
    }

    private final Log log = new Log();
    private PdcpReceiver rx = new PdcpReceiver(new ReorderingConfig(18, T, false));
    private final PdcpTransmitter tx = new PdcpTransmitter(18);

    private void arrive(long count, long time) {
        rx.receive(tx.sn(count), new Packet(count, 1, 1200, null), 0, time, log);
    }

    /** Fires the timer if it is due by {@code time}, as a driver would. */
    private void advance(long time) {
        while (rx.timerExpiry() <= time) rx.expire(rx.timerExpiry(), log);
    }

    @Test
    void inOrderPacketsPassAtOnceWithoutATimer() {
        for (long c = 0; c < 10; c++) arrive(c, c * MS);
        assertEquals(List.of(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L), log.delivered);
        assertFalse(rx.timerRunning());
        assertEquals(10, rx.rxDeliv());
        assertEquals(10, rx.rxNext());
        assertEquals(10, rx.stats().deliveredAtOnce);
        assertEquals(0, rx.stats().held);
    }

    @Test
    void aGapHoldsLaterPacketsUntilItFills() {
        arrive(0, 0);
        arrive(2, MS);       // gap at 1: stored, t-Reordering starts with RX_REORD = RX_NEXT = 3
        arrive(3, 2 * MS);
        assertEquals(List.of(0L), log.delivered);
        assertEquals(List.of(2L, 3L), log.heldIds);
        assertTrue(rx.timerRunning());
        assertEquals(MS + T, rx.timerExpiry());
        assertEquals(3, rx.rxReord());
        assertEquals(1, rx.rxDeliv());
        assertEquals(4, rx.rxNext());
        arrive(1, 5 * MS);   // fills the gap: 1, 2, 3 delivered; RX_DELIV = 4 >= RX_REORD stops the timer
        assertEquals(List.of(0L, 1L, 2L, 3L), log.delivered);
        assertFalse(rx.timerRunning());
        assertEquals(4, rx.rxDeliv());
        assertEquals(2, rx.stats().releasedByArrival);
        // hold times: 2 waited 4 ms, 3 waited 3 ms
        assertEquals(2, rx.stats().holdNanos.getTotalCount());
        assertEquals(4 * MS, rx.stats().holdNanos.getMaxValue(), 4 * MS / 1000.0);
    }

    @Test
    void timerExpiryReleasesBelowRxReordAndTheRunFromIt() {
        arrive(0, 0);
        arrive(2, MS);       // timer starts: RX_REORD = 3, expires at 1 ms + 200 ms
        arrive(3, 2 * MS);
        advance(MS + T - 1);
        assertEquals(List.of(0L), log.delivered);
        advance(MS + T);
        assertEquals(List.of(MS + T), log.expiries);
        // COUNT < RX_REORD (2), then consecutive from RX_REORD (3); RX_DELIV = 4 = RX_NEXT: the timer stays off
        assertEquals(List.of(0L, 2L, 3L), log.delivered);
        assertEquals(4, rx.rxDeliv());
        assertFalse(rx.timerRunning());
        assertEquals(1, rx.stats().skipped);
        assertEquals(2, rx.stats().releasedByTimer);
        // COUNT 1 arrives after the timer gave up on it: below RX_DELIV and never received
        arrive(1, 300 * MS);
        assertEquals(List.of("1:OUTDATED"), log.discarded);
        assertEquals(1, rx.stats().outdated);
    }

    @Test
    void timerRestartsForPacketsBeyondRxReord() {
        arrive(0, 0);
        arrive(2, MS);       // timer 1: RX_REORD = 3
        arrive(4, 3 * MS);   // RX_NEXT = 5; the running timer keeps RX_REORD = 3
        assertEquals(3, rx.rxReord());
        advance(MS + T);
        // delivers 2 (< RX_REORD); 3 is missing, so RX_DELIV = 3; RX_DELIV < RX_NEXT: RX_REORD = 5, timer restarts
        assertEquals(List.of(0L, 2L), log.delivered);
        assertEquals(3, rx.rxDeliv());
        assertEquals(5, rx.rxReord());
        assertEquals(MS + 2 * T, rx.timerExpiry());
        arrive(5, 10 * MS);  // stored; RX_NEXT = 6, timer still running with RX_REORD = 5
        advance(MS + 2 * T);
        // delivers 4 (< RX_REORD = 5) and the run from 5
        assertEquals(List.of(0L, 2L, 4L, 5L), log.delivered);
        assertEquals(6, rx.rxDeliv());
        assertFalse(rx.timerRunning());
        assertEquals(2, rx.stats().timerExpiries);
        assertEquals(2, rx.stats().skipped);
    }

    @Test
    void aHoldLimitReleasesEveryPacketAtMostTReorderingAfterItsArrival() {
        rx = new PdcpReceiver(new ReorderingConfig(18, T, false, true));
        arrive(0, 0);
        arrive(2, MS);       // held; the timer runs for the packet held longest: 1 ms + T
        arrive(4, 3 * MS);   // held behind a second gap; its own limit is 3 ms + T (TS 38.323 §5.2.2: 1 ms + 2 T)
        assertEquals(MS + T, rx.timerExpiry());
        advance(MS + T);
        // 2 has waited T: RX_REORD = 3, 2 is released, 3 is still missing, so RX_DELIV = 3 and 4 waits on
        assertEquals(List.of(0L, 2L), log.delivered);
        assertEquals(3, rx.rxDeliv());
        assertEquals(3 * MS + T, rx.timerExpiry());
        advance(3 * MS + T);
        assertEquals(List.of(0L, 2L, 4L), log.delivered);
        assertEquals(List.of(0L, MS + T, 3 * MS + T), log.deliveredAt);
        assertEquals(5, rx.rxDeliv());
        assertFalse(rx.timerRunning());
        assertEquals(2, rx.stats().skipped);
        assertEquals(T, log.longestWait);
    }

    @Test
    void aHoldLimitReleasesWhatIsBelowTheExpiredPacketInOrderWithIt() {
        rx = new PdcpReceiver(new ReorderingConfig(18, T, false, true));
        arrive(0, 0);
        arrive(3, MS);       // gap 1-2
        arrive(2, 5 * MS);   // lower COUNT, later arrival: held behind 1
        arrive(6, 7 * MS);   // held behind 4-5
        advance(MS + T);
        // 3 has waited T: everything stored below 4 goes with it, in order; 6 keeps its own limit
        assertEquals(List.of(0L, 2L, 3L), log.delivered);
        assertEquals(List.of(MS + T), log.expiries);
        assertEquals(4, rx.rxDeliv());
        assertEquals(7 * MS + T, rx.timerExpiry());
        arrive(4, 10 * MS);
        arrive(5, 11 * MS);  // fills the gap: 4, 5, 6 delivered, nothing held, timer stopped
        assertEquals(List.of(0L, 2L, 3L, 4L, 5L, 6L), log.delivered);
        assertFalse(rx.timerRunning());
        assertEquals(1, rx.stats().skipped);
    }

    @Test
    void aGapFilledUpToRxReordStopsTheTimerAndRestartsItForTheRest() {
        arrive(0, 0);
        arrive(2, MS);       // RX_REORD = 3
        arrive(5, 2 * MS);   // RX_NEXT = 6
        arrive(1, 3 * MS);   // delivers 1, 2; RX_DELIV = 3 >= RX_REORD: stop; RX_DELIV < RX_NEXT: RX_REORD = 6, restart
        assertEquals(List.of(0L, 1L, 2L), log.delivered);
        assertEquals(6, rx.rxReord());
        assertEquals(3 * MS + T, rx.timerExpiry());
    }

    @Test
    void duplicatesAreDiscardedWhetherDeliveredOrStillHeld() {
        arrive(0, 0);
        arrive(0, MS);       // delivered before: COUNT < RX_DELIV and received
        arrive(2, 2 * MS);
        arrive(2, 3 * MS);   // still in the reception buffer
        assertEquals(List.of("0:DUPLICATE", "2:DUPLICATE"), log.discarded);
        assertEquals(2, rx.stats().duplicates);
        assertEquals(List.of(0L), log.delivered);
    }

    @Test
    void zeroTimerReleasesAGapAtTheNextExpiryInstant() {
        rx = new PdcpReceiver(new ReorderingConfig(18, 0, false));
        arrive(0, 0);
        arrive(2, MS);
        assertEquals(MS, rx.timerExpiry());
        advance(MS);
        assertEquals(List.of(0L, 2L), log.delivered);
    }

    @Test
    void outOfOrderDeliveryPassesEverythingAtOnceButDropsDuplicates() {
        rx = new PdcpReceiver(new ReorderingConfig(18, T, true));
        arrive(0, 0);
        arrive(2, MS);
        arrive(1, 2 * MS);
        arrive(2, 3 * MS);
        assertEquals(List.of(0L, 2L, 1L), log.delivered);
        assertEquals(List.of("2:DUPLICATE"), log.discarded);
        assertEquals(3, rx.rxDeliv());
        assertEquals(0, rx.heldPackets());
    }

    @Test
    void snWrapAroundKeepsTheCountWith12BitSequenceNumbers() {
        // 12-bit SNs wrap every 4096 COUNTs; swap neighbours so every wrap happens with reordering around it
        PdcpTransmitter tx12 = new PdcpTransmitter(12);
        rx = new PdcpReceiver(new ReorderingConfig(12, T, false));
        int n = 3 * 4096 + 100;
        long[] order = new long[n];
        for (int i = 0; i < n; i++) order[i] = i;
        for (int i = 0; i + 1 < n; i += 2) { long t = order[i]; order[i] = order[i + 1]; order[i + 1] = t; }
        for (int i = 0; i < n; i++) {
            long c = order[i];
            rx.receive(tx12.sn(c), new Packet(c, 1, 1200, null), 0, i * 1000L, log);
        }
        assertEquals(n, log.delivered.size());
        for (int i = 0; i < n; i++) assertEquals(i, log.delivered.get(i));
        assertEquals(n, rx.rxDeliv());
        assertTrue(log.discarded.isEmpty());
    }

    @Test
    void wrapAroundNearAnHfnBoundaryWithLossAndDuplicates() {
        // start just below an SN wrap, as a bearer continuing its state would (TS 38.323 §7.1)
        long start = 5L * 4096 - 3;
        PdcpTransmitter tx12 = new PdcpTransmitter(12, start);
        rx = new PdcpReceiver(new ReorderingConfig(12, T, false), start);
        long c0 = tx12.nextCount(), c1 = tx12.nextCount(), c2 = tx12.nextCount(), c3 = tx12.nextCount(), c4 = tx12.nextCount();
        assertEquals(4094, tx12.sn(c1));
        assertEquals(0, tx12.sn(c3));
        rx.receive(tx12.sn(c0), new Packet(c0, 1, 100, null), 0, 0, log);
        rx.receive(tx12.sn(c3), new Packet(c3, 1, 100, null), 0, MS, log);   // SN 0 after the wrap: HFN + 1
        rx.receive(tx12.sn(c4), new Packet(c4, 1, 100, null), 0, MS, log);
        rx.receive(tx12.sn(c3), new Packet(c3, 1, 100, null), 0, MS, log);   // duplicate across the wrap
        assertEquals(List.of(c0), log.delivered);
        assertEquals(c4 + 1, rx.rxNext());
        rx.receive(tx12.sn(c2), new Packet(c2, 1, 100, null), 0, 2 * MS, log);
        advance(MS + T);                                                    // c1 is lost
        assertEquals(List.of(c0, c2, c3, c4), log.delivered);
        assertEquals(List.of(c3 + ":DUPLICATE"), log.discarded);
        assertEquals(c4 + 1, rx.rxDeliv());
    }

    @Test
    void anSnFromBeforeCountZeroIsOutdated() {
        rx = new PdcpReceiver(new ReorderingConfig(12, T, false));
        rx.receive(4000, new Packet(99, 1, 100, null), 0, 0, log); // SN >= SN(RX_DELIV) + Window_Size: HFN would be -1
        assertEquals(List.of("99:OUTDATED"), log.discarded);
        assertTrue(log.delivered.isEmpty());
    }

    /**
     * Any arrival order within the window, with some packets lost and some duplicated: what the client gets is in
     * strictly increasing COUNT order, each COUNT at most once, every packet that arrived in time is delivered, and
     * after the last timer expiry nothing is held.
     */
    @Property(tries = 300)
    void deliveriesAreInOrderOnceEachWhateverTheArrivalOrder(@ForAll @IntRange(min = 1, max = 3000) int n,
                                                             @ForAll @IntRange(min = 0, max = 200) int maxDisplacement,
                                                             @ForAll @IntRange(min = 0, max = 30) int lossPercent,
                                                             @ForAll long seed, @ForAll boolean holdLimit) {
        Random r = new Random(seed);
        PdcpTransmitter t12 = new PdcpTransmitter(12);
        PdcpReceiver rx12 = new PdcpReceiver(new ReorderingConfig(12, 5 * MS, false, holdLimit));
        Log out = new Log();
        // arrival time of COUNT c: c ms plus up to maxDisplacement ms of extra delay (stays well inside the window)
        List<long[]> arrivals = new ArrayList<>();
        for (long c = 0; c < n; c++) {
            if (r.nextInt(100) < lossPercent) continue;
            arrivals.add(new long[] {c * MS + r.nextInt(maxDisplacement + 1) * MS, c});
            if (r.nextInt(20) == 0) arrivals.add(new long[] {c * MS + r.nextInt(maxDisplacement + 1) * MS, c});
        }
        arrivals.sort((x, y) -> Long.compare(x[0], y[0]));
        for (long[] a : arrivals) {
            while (rx12.timerExpiry() <= a[0]) rx12.expire(rx12.timerExpiry(), out);
            rx12.receive(t12.sn(a[1]), new Packet(a[1], 1, 100, null), 0, a[0], out);
        }
        while (rx12.timerRunning()) rx12.expire(rx12.timerExpiry(), out);
        for (int i = 1; i < out.delivered.size(); i++) assertTrue(out.delivered.get(i) > out.delivered.get(i - 1));
        assertEquals(0, rx12.heldPackets());
        long distinctArrived = arrivals.stream().mapToLong(a -> a[1]).distinct().count();
        ReorderingStats s = rx12.stats();
        // a COUNT the timer gave up on is discarded as outdated for each copy that comes after
        long distinctOutdated = out.discarded.stream().filter(d -> d.endsWith(":OUTDATED")).distinct().count();
        assertEquals(distinctArrived, out.delivered.size() + distinctOutdated);
        assertEquals(arrivals.size(), out.delivered.size() + s.duplicates + s.outdated);
        assertEquals(s.deliveredAtOnce + s.releasedByArrival + s.releasedByTimer, out.delivered.size());
        // with a hold limit no packet waits longer than t-Reordering (TS 38.323 §5.2.2: up to once per gap before it)
        if (holdLimit) assertTrue(out.longestWait <= 5 * MS, "longest wait " + out.longestWait);
    }
}
