package org.pacelab.quic.recovery;

import java.util.List;

import org.pacelab.quic.frame.EcnCounts;
import org.pacelab.quic.util.RangeSet;

/**
 * The sender's side of ECN (RFC 9000 §13.4.2, Appendix A.4): which codepoint outgoing packets carry, and whether the
 * path keeps it. The first {@value #TESTING_PACKETS} packets are sent ECT(0) (testing); then marking pauses until an
 * acknowledgment validates the path (capable: every packet marked from then on). Validation fails — and marking stops
 * for good — when an ACK frame that newly acknowledges marked packets carries no ECN counts, when the ECT(0) and CE
 * counts grew by less than the marked packets it newly acknowledges (the marks were bleached), when it reports ECT(1)
 * (never sent here) or more marked packets than were sent, or when every testing packet was lost. CE counts are
 * counted ({@link #ceReported()}); congestion control does not react to them (RFC 9002 §7.1) — pacelab's emulator never
 * sets CE.
 *
 * <p>This class holds the path's state (RFC 9000 §13.4.2 validates a path). What is counted per packet number space
 * (§13.4.1: each space has its own ECN counts) — the packets sent marked, those not yet acknowledged or lost, the
 * largest ECT(0) and CE counts the peer reported — each {@link PacketNumberSpace} keeps, beside its loss-detection
 * state; the validator is handed the space an event belongs to.
 */
public final class EcnValidator {
    /** Packets marked while testing (RFC 9000 §13.4.2: "the first ten outgoing packets"). */
    public static final int TESTING_PACKETS = 10;
    /** ECT(0) in the IP header's ECN field (RFC 3168). */
    public static final int ECT0 = 0b10;

    /** RFC 9000 Appendix A.4 states. */
    public enum State { TESTING, UNKNOWN, CAPABLE, FAILED }

    private State state;
    private int testingSent;
    /** Marked packets declared lost. */
    private int testingLost;
    private boolean anyMarkedAcked;
    private long ceReported;
    private String failure;

    /** @param enabled whether to use ECN at all (false: never marks) */
    public EcnValidator(boolean enabled) {
        this.state = enabled ? State.TESTING : State.FAILED;
        if (!enabled) {
            failure = "ECN is off";
        }
    }

    public State state() { return state; }

    /** Why marking stopped for good, or null. */
    public String failure() { return failure; }

    /** CE marks the peer reported so far (summed over packet number spaces). */
    public long ceReported() { return ceReported; }

    /** The ECN codepoint to put on the next packet: ECT(0) while testing or capable, else 0 (Not-ECT). */
    public int codepoint() {
        return state == State.TESTING || state == State.CAPABLE ? ECT0 : 0;
    }

    /** A packet of {@code space} was sent with {@link #codepoint()}. */
    public void onSent(PacketNumberSpace space, long packetNumber, boolean marked) {
        if (marked) {
            space.ecnMarkedSent++;
            space.ecnMarked.add(packetNumber);
            if (state == State.TESTING && ++testingSent >= TESTING_PACKETS) {
                state = State.UNKNOWN;
            }
        }
    }

    /** An ACK frame of {@code space} newly acknowledged {@code packetNumbers}; {@code counts} are its ECN counts or null. */
    public void onAck(PacketNumberSpace space, List<Long> packetNumbers, EcnCounts counts) {
        RangeSet marked = space.ecnMarked;
        long newlyMarked = 0;
        for (long pn : packetNumbers) {
            if (marked.contains(pn)) {
                marked.remove(pn, pn + 1);
                newlyMarked++;
            }
        }
        if (counts != null) {
            if (counts.ce() > space.ecnLastCe) {
                ceReported += counts.ce() - space.ecnLastCe;
            }
        }
        if (state == State.FAILED || newlyMarked == 0) {
            remember(space, counts);
            return;
        }
        if (counts == null) {
            fail("an ACK frame newly acknowledged " + newlyMarked + " ECT(0) packets without ECN counts");
            return;
        }
        long grown = Math.max(0, counts.ect0() - space.ecnLastEct0) + Math.max(0, counts.ce() - space.ecnLastCe);
        if (grown < newlyMarked) {
            fail("the ECT(0) and CE counts grew by " + grown + " for " + newlyMarked + " newly acknowledged ECT(0) packets");
        } else if (counts.ect1() > 0) {
            fail("the peer reported " + counts.ect1() + " ECT(1) packets, and none were sent");
        } else if (counts.ect0() + counts.ce() > space.ecnMarkedSent) {
            fail("the peer reported " + (counts.ect0() + counts.ce()) + " ECT(0)/CE packets, more than the "
                    + space.ecnMarkedSent + " sent");
        } else {
            anyMarkedAcked = true;
            state = State.CAPABLE;
        }
        remember(space, counts);
    }

    /** Marked packets were declared lost; when every testing packet was lost and none acknowledged, ECN fails. */
    public void onLost(PacketNumberSpace space, List<Long> packetNumbers) {
        RangeSet m = space.ecnMarked;
        for (long pn : packetNumbers) {
            if (m.contains(pn)) {
                m.remove(pn, pn + 1);
                testingLost++;
            }
        }
        if (!anyMarkedAcked && state != State.FAILED && state != State.CAPABLE && testingSent >= TESTING_PACKETS
                && testingLost >= testingSent) {
            fail("all " + testingSent + " ECT(0) packets sent while testing were lost");
        }
    }

    private static void remember(PacketNumberSpace space, EcnCounts counts) {
        if (counts != null) {
            space.ecnLastEct0 = Math.max(space.ecnLastEct0, counts.ect0());
            space.ecnLastCe = Math.max(space.ecnLastCe, counts.ce());
        }
    }

    private void fail(String why) {
        state = State.FAILED;
        failure = why;
    }
}
