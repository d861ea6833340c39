package org.pacelab.net.dc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pacelab.net.link.DropCause;
import org.pacelab.net.link.EventType;
import org.pacelab.net.link.Link;
import org.pacelab.net.link.LinkObserver;
import org.pacelab.net.link.Packet;
import org.pacelab.net.link.PacketChannel;
import org.pacelab.net.spec.SpecException;

/** The whole downlink (splitter, two paths, reordering receivers) under a fake clock. */
class DualConnectivityDownlinkTest {
    private static final long MS = 1_000_000L;

    record Event(EventType type, int path, long id, int flow, long time, DropCause cause) { }

    static final class Recorder implements LinkObserver {
        final List<Event> events = new ArrayList<>();
        @Override public void onEvent(EventType t, int d, Packet p, long time, DropCause c, int q) {
            throw new AssertionError("the model must report paths");
        }
        @Override public void onPathEvent(EventType t, int d, int path, Packet p, long time, DropCause c, int q) {
            events.add(new Event(t, path, p.id(), p.flow(), time, c));
        }
        long count(EventType t) { return events.stream().filter(e -> e.type() == t).count(); }
        long count(EventType t, int path) { return events.stream().filter(e -> e.type() == t && e.path() == path).count(); }
    }

    record Delivered(long id, int flow, long time) { }

    /** Offers {@code n} packets of {@code flow} every {@code gapNanos}, then drains; returns what the client got. */
    static List<Delivered> drive(PacketChannel down, int[] flows, int n, long gapNanos) {
        List<Delivered> got = new ArrayList<>();
        long id = 0;
        for (int i = 0; i < n; i++) {
            long t = i * gapNanos;
            down.advanceTo(t, (p, tt) -> got.add(new Delivered(p.id(), p.flow(), tt)));
            for (int f : flows) down.offer(new Packet(id++, f, 1200, null), t);
        }
        while (down.nextEventTime() != Long.MAX_VALUE) {
            down.advanceTo(down.nextEventTime(), (p, tt) -> got.add(new Delivered(p.id(), p.flow(), tt)));
        }
        return got;
    }

    static Link link(String dc, Recorder rec) throws SpecException {
        return DcFactory.build(DcSpecParser.parse(dc, null, null, null), 7, 0, rec);
    }

    private static void assertInOrderPerFlow(List<Delivered> got) {
        Map<Integer, Long> last = new HashMap<>();
        for (Delivered d : got) {
            Long prev = last.put(d.flow(), d.id());
            if (prev != null) assertTrue(d.id() > prev, "flow " + d.flow() + " got " + d.id() + " after " + prev);
        }
    }

    @Test
    void evenBatchesUseBothPathsEquallyAndArriveInOrder() throws SpecException {
        Recorder rec = new Recorder();
        Link link = link("batch=10 ratio=1:1 wire=off a.rate=10mbit a.delay=10ms a.jitter=none "
                + "b.rate=10mbit b.delay=30ms b.jitter=none", rec);
        // 2000 packets of 1200 bytes every 0.5 ms: 19.2 Mbit/s offered onto 2 x 10 Mbit/s
        List<Delivered> got = drive(link.down(), new int[] {1}, 2000, MS / 2);
        assertEquals(2000, got.size());
        assertInOrderPerFlow(got);
        assertEquals(1000, rec.count(EventType.DEQUEUE, 0));
        assertEquals(1000, rec.count(EventType.DEQUEUE, 1));
        // path b is 20 ms slower: batches from a wait for the batch before them on b
        assertTrue(rec.count(EventType.REORDER_HOLD) > 0);
        assertEquals(2000, rec.count(EventType.REORDER_RELEASE));
        assertEquals(0, rec.count(EventType.REORDER_TIMEOUT));
        DualConnectivityDownlink dc = (DualConnectivityDownlink) link.down();
        assertEquals(rec.count(EventType.REORDER_HOLD), dc.reorderingStats(1).held);
        assertEquals(0, dc.packetsInside());
    }

    @Test
    void theRatioIsTheShareOfPacketsPerPath() throws SpecException {
        Recorder rec = new Recorder();
        Link link = link("batch=100 ratio=9:1 wire=off a.rate=100mbit b.rate=100mbit", rec);
        drive(link.down(), new int[] {1}, 5000, MS / 2);
        assertEquals(4500, rec.count(EventType.DEQUEUE, 0));
        assertEquals(500, rec.count(EventType.DEQUEUE, 1));
    }

    @Test
    void everyPacketReachingTheReceiverIsReleasedHeldOrDiscardedOnce() throws SpecException {
        Recorder rec = new Recorder();
        Link link = link("batch=5 ratio=2:1 wire=off a.rate=10mbit a.loss=2% b.rate=5mbit b.delay=25ms b.loss=2%", rec);
        List<Delivered> got = drive(link.down(), new int[] {1}, 3000, MS);
        assertInOrderPerFlow(got);
        long delivered = rec.count(EventType.DELIVER);
        long released = rec.count(EventType.REORDER_RELEASE);
        assertEquals(got.size(), released);
        assertEquals(delivered, released + rec.count(EventType.REORDER_DISCARD));
        // losses leave gaps that only the timer closes
        assertTrue(rec.count(EventType.REORDER_TIMEOUT) > 0);
        assertEquals(3000 - rec.count(EventType.DROP), delivered);
        DualConnectivityDownlink dc = (DualConnectivityDownlink) link.down();
        ReorderingStats s = dc.reorderingStats();
        assertEquals(rec.count(EventType.REORDER_TIMEOUT), s.timerExpiries);
        assertEquals(rec.count(EventType.DROP), s.skipped);
        // a released held packet waited at most the 200 ms timer plus the time its gap's timer had already run
        assertTrue(s.holdNanos.getMaxValue() <= 400 * MS, "max hold " + s.holdNanos.getMaxValue());
    }

    @Test
    void timeoutsHappenExactlyTReorderingAfterTheGapIsSeen() throws SpecException {
        Recorder rec = new Recorder();
        // every other batch of 1 on path b, which drops everything: each b packet is a gap the timer must close
        Link link = link("batch=1 ratio=1:1 t-reordering=50ms wire=off a.rate=unlimited a.delay=10ms a.jitter=none "
                + "b.rate=unlimited b.delay=10ms b.loss=100%", rec);
        List<Delivered> got = drive(link.down(), new int[] {1}, 2, 100 * MS);
        // packet 0 on a arrives at 10 ms and is delivered; packet 1 (on b) is lost
        assertEquals(List.of(new Delivered(0, 1, 10 * MS)), got);
        got = drive(link("batch=1 ratio=1:1 t-reordering=50ms wire=off a.rate=unlimited a.delay=10ms a.jitter=none "
                + "b.rate=unlimited b.delay=10ms b.loss=100%", rec).down(), new int[] {1}, 3, 100 * MS);
        // packet 2 on a arrives at 210 ms, after the gap at COUNT 1: held, released by the timer at 260 ms
        assertEquals(List.of(new Delivered(0, 1, 10 * MS), new Delivered(2, 1, 260 * MS)), got);
    }

    @Test
    void duplicationDeliversEachPacketOnceAndDiscardsTheSecondCopy() throws SpecException {
        Recorder rec = new Recorder();
        Link link = link("split=duplicate wire=off a.rate=20mbit a.delay=10ms b.rate=20mbit b.delay=12ms", rec);
        List<Delivered> got = drive(link.down(), new int[] {1}, 1000, MS);
        assertEquals(1000, got.size());
        assertInOrderPerFlow(got);
        assertEquals(1000, rec.count(EventType.DEQUEUE, 0));
        assertEquals(1000, rec.count(EventType.DEQUEUE, 1));
        assertEquals(1000, rec.count(EventType.REORDER_DISCARD));
        assertTrue(rec.events.stream().filter(e -> e.type() == EventType.REORDER_DISCARD)
                .allMatch(e -> e.cause() == DropCause.DUPLICATE));
    }

    @Test
    void duplicationMasksLossOnOnePath() throws SpecException {
        Recorder rec = new Recorder();
        Link link = link("split=duplicate wire=off a.rate=20mbit a.loss=5% b.rate=20mbit b.delay=11ms", rec);
        List<Delivered> got = drive(link.down(), new int[] {1}, 1000, MS);
        assertEquals(1000, got.size());
        assertTrue(rec.count(EventType.DROP, 0) > 20);
    }

    @Test
    void singlePathFlowsShareThePathsWithTheDualConnectedOne() throws SpecException {
        Recorder rec = new Recorder();
        Link link = link("batch=10 wire=off a.rate=50mbit b.rate=50mbit", rec);
        DualConnectivityDownlink dc = (DualConnectivityDownlink) link.down();
        dc.assign(2, DcFlowMode.PATH_A);
        dc.assign(3, DcFlowMode.PATH_B);
        List<Delivered> got = drive(link.down(), new int[] {1, 2, 3}, 600, MS);
        assertEquals(1800, got.size());
        assertInOrderPerFlow(got);
        Map<Integer, long[]> perFlowPath = new HashMap<>();
        for (Event e : rec.events) {
            if (e.type() == EventType.DEQUEUE) perFlowPath.computeIfAbsent(e.flow(), f -> new long[2])[e.path()]++;
        }
        assertEquals(300, perFlowPath.get(1)[0]);
        assertEquals(300, perFlowPath.get(1)[1]);
        assertEquals(600, perFlowPath.get(2)[0]);
        assertEquals(0, perFlowPath.get(2)[1]);
        assertEquals(0, perFlowPath.get(3)[0]);
        assertEquals(600, perFlowPath.get(3)[1]);
        assertEquals(List.of(1, 2, 3), dc.flows());
        assertThrows(IllegalStateException.class, () -> dc.assign(1, DcFlowMode.PATH_A));
    }

    @Test
    void singlePathFlowsAreNotHeldForReordering() throws SpecException {
        Recorder rec = new Recorder();
        // path b loses packets: the dual-connected flow waits out each gap, the path-b-only flow does not
        Link link = link("batch=10 wire=off a.rate=50mbit b.rate=50mbit b.loss=5%", rec);
        DualConnectivityDownlink dc = (DualConnectivityDownlink) link.down();
        dc.assign(2, DcFlowMode.PATH_B);
        drive(link.down(), new int[] {1, 2}, 400, MS);
        assertTrue(dc.reorderingStats(1).timerExpiries > 0);
        assertEquals(0, dc.reorderingStats(2).held);
        assertEquals(dc.reorderingStats(2).received, dc.reorderingStats(2).deliveredAtOnce);
        assertTrue(rec.events.stream().noneMatch(e -> e.flow() == 2 && e.type() == EventType.REORDER_HOLD));
    }

    /**
     * Flow 2 on path b only (12 Mbit/s, so a 1200-byte packet takes 0.8 ms; a 3-packet queue counting the one in
     * service; 10 ms, no jitter): four packets at 0 ms overflow the queue, one more at 100 ms comes after the drop;
     * returns what the client got.
     */
    private static List<Delivered> singlePathDrop(String extra, Recorder rec) throws SpecException {
        Link link = link("batch=10 t-reordering=200ms wire=off b.rate=12mbit b.queue=3p b.delay=10ms b.jitter=none "
                + extra, rec);
        DualConnectivityDownlink dc = (DualConnectivityDownlink) link.down();
        dc.assign(2, DcFlowMode.PATH_B);
        List<Delivered> got = new ArrayList<>();
        for (int id = 0; id < 4; id++) link.down().offer(new Packet(id, 2, 1200, null), 0);
        link.down().advanceTo(100 * MS, (p, t) -> got.add(new Delivered(p.id(), p.flow(), t)));
        link.down().offer(new Packet(4, 2, 1200, null), 100 * MS);
        while (link.down().nextEventTime() != Long.MAX_VALUE) {
            link.down().advanceTo(link.down().nextEventTime(), (p, t) -> got.add(new Delivered(p.id(), p.flow(), t)));
        }
        assertEquals(0, link.down().packetsInside());
        return got;
    }

    private static List<Long> droppedIds(Recorder rec) {
        return rec.events.stream().filter(e -> e.type() == EventType.DROP).map(Event::id).toList();
    }

    @Test
    void singlePathInOrderHoldsASinglePathFlowBehindItsDropUntilTReorderingExpires() throws SpecException {
        Recorder passRec = new Recorder(), inOrderRec = new Recorder();
        List<Delivered> pass = singlePathDrop("", passRec);
        List<Delivered> inOrder = singlePathDrop("single-path=in-order", inOrderRec);
        // the same packets are dropped either way: the option changes only the receiver
        List<Long> dropped = droppedIds(passRec);
        assertEquals(List.of(3L), dropped, "the 3-packet queue drops the fourth");
        assertEquals(dropped, droppedIds(inOrderRec));
        assertEquals(4, pass.size());
        assertEquals(pass.stream().map(Delivered::id).toList(), inOrder.stream().map(Delivered::id).toList());
        Delivered lastPass = pass.getLast(), lastInOrder = inOrder.getLast();
        assertEquals(4, lastPass.id());
        // pass-through (the default): packet 4 reaches the client when its path delivers it, 10.8 ms after it was sent
        assertEquals(100 * MS + 10 * MS + 800_000, lastPass.time());
        assertEquals(0, passRec.count(EventType.REORDER_HOLD));
        // its outOfOrderDelivery receiver still runs t-Reordering once to move RX_DELIV past the gap (TS 38.323
        // §5.2.2.2), but with nothing held the expiry releases nothing
        assertEquals(1, passRec.count(EventType.REORDER_TIMEOUT));
        // in order: the drop is a COUNT gap; packet 4 is held from its arrival until t-Reordering (200 ms) expires
        assertEquals(lastPass.time() + 200 * MS, lastInOrder.time());
        assertTrue(inOrderRec.events.stream().anyMatch(e -> e.type() == EventType.REORDER_HOLD && e.id() == 4));
        assertEquals(List.of(lastPass.time() + 200 * MS), inOrderRec.events.stream()
                .filter(e -> e.type() == EventType.REORDER_TIMEOUT && e.flow() == 2).map(Event::time).toList());
        // the packets before the drop are not held: they reach the client at the same times either way
        assertEquals(pass.subList(0, 3), inOrder.subList(0, 3));
    }

    @Test
    void singlePathInOrderGivesEverySinglePathFlowTheReceiversStats() throws SpecException {
        Recorder rec = new Recorder();
        Link link = link("batch=10 wire=off a.rate=50mbit b.rate=50mbit b.loss=5% single-path=in-order", rec);
        DualConnectivityDownlink dc = (DualConnectivityDownlink) link.down();
        dc.assign(2, DcFlowMode.PATH_B);
        dc.assign(3, DcFlowMode.PATH_A);
        List<Delivered> got = drive(link.down(), new int[] {1, 2, 3}, 400, MS);
        assertInOrderPerFlow(got);
        ReorderingStats b = dc.reorderingStats(2);
        assertTrue(b.held > 0 && b.timerExpiries > 0, "the lossy path's own flow waits out its gaps");
        assertEquals(rec.events.stream().filter(e -> e.type() == EventType.DROP && e.flow() == 2).count(), b.skipped);
        assertEquals(0, dc.reorderingStats(3).held, "path a loses nothing and keeps its order: nothing to hold");
        // a dual-connected flow whose split uses one path is a single-path flow too
        Link one = link("split=a wire=off a.rate=50mbit a.loss=5% single-path=in-order", new Recorder());
        drive(one.down(), new int[] {1}, 400, MS);
        assertTrue(((DualConnectivityDownlink) one.down()).reorderingStats(1).timerExpiries > 0);
        Link onePass = link("split=a wire=off a.rate=50mbit a.loss=5%", new Recorder());
        drive(onePass.down(), new int[] {1}, 400, MS);
        assertEquals(0, ((DualConnectivityDownlink) onePass.down()).reorderingStats(1).held);
    }

    @Test
    void theWireAndTapComeBeforeTheSplitterOncePerPacket() throws SpecException {
        Recorder rec = new Recorder();
        Link link = link("split=duplicate wire=1gbit", rec);
        drive(link.down(), new int[] {1}, 10, MS);
        assertEquals(10, rec.count(EventType.TAP, LinkObserver.NO_PATH));
        assertEquals(10, rec.count(EventType.ARRIVAL, LinkObserver.NO_PATH));
        assertEquals(10, rec.count(EventType.TAP));
        assertEquals(10, rec.count(EventType.ENQUEUE, 0));
        assertEquals(10, rec.count(EventType.ENQUEUE, 1));
    }

    @Test
    void sameSeedSameEventsDifferentSeedDifferentJitter() throws SpecException {
        String dc = "batch=20 wire=off a.rate=20mbit a.jitter=normal:cov=0.1 b.rate=20mbit b.delay=15ms b.loss=1%";
        Recorder r1 = new Recorder(), r2 = new Recorder(), r3 = new Recorder();
        drive(DcFactory.build(DcSpecParser.parse(dc, null, null, null), 3, 0, r1).down(), new int[] {1}, 500, MS / 2);
        drive(DcFactory.build(DcSpecParser.parse(dc, null, null, null), 3, 0, r2).down(), new int[] {1}, 500, MS / 2);
        drive(DcFactory.build(DcSpecParser.parse(dc, null, null, null), 4, 0, r3).down(), new int[] {1}, 500, MS / 2);
        assertEquals(r1.events, r2.events);
        assertTrue(!r1.events.equals(r3.events));
    }

    @Test
    void reusedPacketIdsInsideAreRefused() throws SpecException {
        Link link = link("wire=off", new Recorder());
        link.down().offer(new Packet(5, 1, 1000, null), 0);
        assertThrows(IllegalArgumentException.class, () -> link.down().offer(new Packet(5, 1, 1000, null), 0));
    }
}
