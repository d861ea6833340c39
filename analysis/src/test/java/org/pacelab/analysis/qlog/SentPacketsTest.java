package org.pacelab.analysis.qlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** What {@link SentPackets#add} keeps and what its answer tells the reader (one check of the reach). */
class SentPacketsTest {

    @Test
    void aNumberBeyondTheReachIsRefusedAndTheReachGrowsWithEachPacketKept() {
        SentPackets sent = new SentPackets();
        assertFalse(sent.add(SentPackets.REACH + 1, 1, 1, 1200, Double.NaN), "beyond the reach of an empty trace");
        assertFalse(sent.contains(SentPackets.REACH + 1));
        assertEquals(0, sent.count());
        assertTrue(sent.add(SentPackets.REACH, 1, 1, 1200, Double.NaN), "at the reach");
        assertTrue(sent.contains(SentPackets.REACH));
        assertFalse(sent.add(SentPackets.REACH + SentPackets.SPREAD + 1, 2, 2, 1200, Double.NaN));
        assertTrue(sent.add(SentPackets.REACH + SentPackets.SPREAD, 2, 2, 1200, Double.NaN),
                "one packet kept reaches SPREAD numbers further");
        assertFalse(sent.add(SentPackets.REACH + 2 * SentPackets.SPREAD + 1, 3, 3, 1200, Double.NaN));
        assertEquals(2, sent.count());
        assertEquals(SentPackets.REACH + SentPackets.SPREAD, sent.maxPacketNumber());
    }

    @Test
    void aPacketLoggedTwiceOrWithANegativeNumberIsWithinReachButNotKeptAgain() {
        SentPackets sent = new SentPackets();
        assertTrue(sent.add(5, 1.0, 0.5, 1200, 8e6));
        assertTrue(sent.add(5, 2.0, 1.5, 100, 9e6), "within reach: not a far packet");
        assertEquals(1, sent.count());
        assertEquals(1.0, sent.eventMs(5), "the first is kept");
        assertEquals(1200, sent.size(5));
        assertTrue(sent.add(-1, 3.0, 3.0, 1200, 8e6));
        assertFalse(sent.contains(-1));
        assertEquals(1, sent.count());
        assertEquals(1, sent.withSendAt());
    }
}
