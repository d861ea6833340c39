package org.pacelab.quic.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.frame.EcnCounts;
import org.pacelab.quic.packet.PacketSpace;

/**
 * ECN validation (RFC 9000 §13.4.2, Appendix A.4) on its own: one state for the path, the counts compared per packet
 * number space (§13.4.1), each space's kept in its {@link PacketNumberSpace}.
 */
class EcnValidatorTest {
    private final PacketNumberSpace[] spaces = PacketNumberSpace.all(2, 25_000_000L);
    private final EcnValidator ecn = new EcnValidator(true);

    private PacketNumberSpace space(PacketSpace id) {
        return spaces[id.ordinal()];
    }

    /** Sends {@code n} marked packets in {@code id}; returns their numbers. */
    private List<Long> sendMarked(PacketSpace id, int n) {
        PacketNumberSpace s = space(id);
        List<Long> pns = LongStream.range(0, n).map(i -> s.takePacketNumber()).boxed().toList();
        for (long pn : pns) {
            ecn.onSent(s, pn, ecn.codepoint() != 0);
        }
        return pns;
    }

    @Test
    void eachSpaceComparesTheCountsWithItsOwnMarkedPackets() {
        List<Long> initial = sendMarked(PacketSpace.INITIAL, 3);
        List<Long> app = sendMarked(PacketSpace.APPLICATION, 7);
        assertEquals(EcnValidator.State.UNKNOWN, ecn.state(), "ten packets marked while testing, then it waits");
        assertEquals(0, ecn.codepoint());
        ecn.onAck(space(PacketSpace.INITIAL), initial, new EcnCounts(3, 0, 0));
        assertEquals(EcnValidator.State.CAPABLE, ecn.state());
        // the application space's counts start from 0, not from the Initial space's 3; 7 would be too few otherwise
        ecn.onAck(space(PacketSpace.APPLICATION), app, new EcnCounts(7, 0, 0));
        assertEquals(EcnValidator.State.CAPABLE, ecn.state(), ecn.failure());
        assertNull(ecn.failure());
        assertEquals(EcnValidator.ECT0, ecn.codepoint());
    }

    @Test
    void moreMarkedPacketsReportedThanTheSpaceSentFailsTheValidation() {
        sendMarked(PacketSpace.INITIAL, 6);
        List<Long> handshake = sendMarked(PacketSpace.HANDSHAKE, 4);
        ecn.onAck(space(PacketSpace.HANDSHAKE), handshake, new EcnCounts(5, 0, 0));
        assertEquals(EcnValidator.State.FAILED, ecn.state());
        assertEquals("the peer reported 5 ECT(0)/CE packets, more than the 4 sent", ecn.failure());
    }

    @Test
    void congestionExperiencedMarksAreSummedOverTheSpaces() {
        List<Long> initial = sendMarked(PacketSpace.INITIAL, 2);
        List<Long> app = sendMarked(PacketSpace.APPLICATION, 8);
        ecn.onAck(space(PacketSpace.INITIAL), initial, new EcnCounts(1, 0, 1));
        ecn.onAck(space(PacketSpace.APPLICATION), app.subList(0, 4), new EcnCounts(2, 0, 2));
        ecn.onAck(space(PacketSpace.APPLICATION), app.subList(4, 8), new EcnCounts(3, 0, 5));
        assertEquals(EcnValidator.State.CAPABLE, ecn.state(), ecn.failure());
        assertEquals(1 + 5, ecn.ceReported());
    }

    @Test
    void bleachedMarksFailAndLostTestingPacketsFailToo() {
        List<Long> app = sendMarked(PacketSpace.APPLICATION, 10);
        ecn.onAck(space(PacketSpace.APPLICATION), app.subList(0, 2), new EcnCounts(1, 0, 0));
        assertEquals("the ECT(0) and CE counts grew by 1 for 2 newly acknowledged ECT(0) packets", ecn.failure());

        EcnValidator lossy = new EcnValidator(true);
        PacketNumberSpace s = PacketNumberSpace.all(2, 25_000_000L)[PacketSpace.APPLICATION.ordinal()];
        for (int i = 0; i < EcnValidator.TESTING_PACKETS; i++) {
            lossy.onSent(s, s.takePacketNumber(), true);
        }
        lossy.onLost(s, LongStream.range(0, 9).boxed().toList());
        assertEquals(EcnValidator.State.UNKNOWN, lossy.state());
        lossy.onLost(s, List.of(9L));
        assertEquals(EcnValidator.State.FAILED, lossy.state());
        assertEquals("all 10 ECT(0) packets sent while testing were lost", lossy.failure());
    }
}
