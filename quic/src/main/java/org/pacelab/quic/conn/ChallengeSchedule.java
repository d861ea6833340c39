package org.pacelab.quic.conn;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.random.RandomGenerator;

import org.pacelab.quic.recovery.RttEstimator;

/**
 * The PATH_CHALLENGEs of one path validation (RFC 9000 §8.2), whichever path it is: the challenge data still outstanding
 * (8 unpredictable bytes each, §8.2.1; an answer to an older one still validates, §8.2.3), when the next challenge is due
 * and when the validation has failed (§8.2.4). A round starts with a challenge due at once; an unanswered one is followed
 * by another after the new path's initial PTO (or the current PTO when longer), the interval doubling each time
 * (§8.2.1: "An endpoint SHOULD NOT probe a new path with packets containing a PATH_CHALLENGE frame more frequently than
 * it would send an Initial packet", and Initials are resent after that PTO, doubled each time, RFC 9002 §6.2.1). The
 * round fails after three times the larger of the current PTO or the new path's ({@link #validationTimeout}, §8.2.4).
 * Both {@link PathValidator} (the path a peer moved to) and
 * {@link PathProbe} (a preferred address) hold one. Sans-I/O: the caller owns the clock.
 */
final class ChallengeSchedule {
    /** RFC 9002 §6.2.2's kInitialRtt, ns: the RTT of a new path before a sample. */
    static final long INITIAL_RTT = RttEstimator.INITIAL_RTT;
    /**
     * RFC 9002 §6.2.2: the PTO of a path without an RTT sample, {@code kInitialRtt + max(4 * kInitialRtt / 2,
     * kGranularity)}, without max_ack_delay as for an Initial (§6.2.1): 999 ms.
     */
    static final long INITIAL_PTO = INITIAL_RTT + Math.max(4 * (INITIAL_RTT / 2), RttEstimator.GRANULARITY);
    /** Outstanding challenges remembered (answers to older ones still validate, §8.2.3). */
    private static final int REMEMBERED = 8;

    private final RandomGenerator random;
    private final List<byte[]> outstanding = new ArrayList<>();
    private boolean due;
    private long nextAt = Long.MAX_VALUE;
    private long interval = INITIAL_PTO;
    private long deadline = Long.MAX_VALUE;

    ChallengeSchedule(RandomGenerator random) {
        this.random = random;
    }

    /**
     * Starts a round at {@code now}: the first challenge due at once unless {@code challenge} is false, the interval
     * and the deadline from the current PTO. Challenges of an earlier round stay outstanding.
     *
     * @param pto         the current path's PTO without max_ack_delay and backoff (RFC 9002 §6.2.1), ns
     * @param maxAckDelay the peer's max_ack_delay, ns: part of both PTOs {@link #validationTimeout} compares
     */
    void start(long now, long pto, long maxAckDelay, boolean challenge) {
        due = challenge;
        nextAt = Long.MAX_VALUE;
        interval = firstInterval(pto);
        deadline = now + validationTimeout(pto, maxAckDelay);
    }

    /** Ends the schedule: nothing outstanding, nothing due, no timer (the path validated, or a new one replaces it). */
    void stop() {
        outstanding.clear();
        due = false;
        nextAt = Long.MAX_VALUE;
        deadline = Long.MAX_VALUE;
    }

    /** Whether a PATH_CHALLENGE must go out now. */
    boolean due() {
        return due;
    }

    /** The data of a new PATH_CHALLENGE (remembered as outstanding); the next one is due after an interval that then doubles. */
    byte[] take(long now) {
        byte[] data = new byte[8];
        random.nextBytes(data);
        if (outstanding.size() == REMEMBERED) {
            outstanding.removeFirst();
        }
        outstanding.add(data);
        due = false;
        nextAt = now + interval;
        interval = nextInterval(interval);
        return data.clone();
    }

    /** Whether a PATH_RESPONSE's data echoes a challenge still outstanding (§8.2.3). */
    boolean answers(byte[] data) {
        for (byte[] o : outstanding) {
            if (Arrays.equals(o, data)) {
                return true;
            }
        }
        return false;
    }

    /** When {@link #onTimeout} must run: the next challenge or the deadline, or {@link Long#MAX_VALUE}. */
    long timer() {
        return Math.min(nextAt, deadline);
    }

    /** At the timer: a new challenge due after the interval without answer; returns whether the deadline has passed (§8.2.4). */
    boolean onTimeout(long now) {
        if (now >= deadline) {
            return true;
        }
        if (now >= nextAt) {
            due = true;
            nextAt = Long.MAX_VALUE;
        }
        return false;
    }

    /**
     * RFC 9000 §8.2.4: "A value of three times the larger of the current PTO or the PTO for the new path (using
     * kInitialRtt, as defined in [QUIC-RECOVERY]) is RECOMMENDED." A PTO is RFC 9002 §6.2.1's {@code smoothed_rtt +
     * max(4 * rttvar, kGranularity) + max_ack_delay} (application data: a path is validated once the handshake is
     * complete); the new path's, with kInitialRtt (§6.2.2), is {@link #INITIAL_PTO} + max_ack_delay, about 1 s, so the
     * timeout is about 3 s at least (3.072 s with the default 25 ms max_ack_delay).
     *
     * @param pto         the current path's PTO without max_ack_delay and backoff, ns
     * @param maxAckDelay the peer's max_ack_delay, ns
     */
    static long validationTimeout(long pto, long maxAckDelay) {
        return 3 * (Math.max(pto, INITIAL_PTO) + maxAckDelay);
    }

    /** The first resend interval on a new path: its initial PTO, or the current one when longer (§8.2.1, §8.2.4). */
    static long firstInterval(long pto) {
        return Math.max(pto, INITIAL_PTO);
    }

    /** The next resend interval: doubled, like an Initial's PTO (RFC 9002 §6.2.1), bounded so it cannot overflow. */
    static long nextInterval(long interval) {
        return Math.min(2 * interval, 1L << 50);
    }
}
