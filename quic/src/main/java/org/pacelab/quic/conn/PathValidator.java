package org.pacelab.quic.conn;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * Validation of the path a connection has moved to (RFC 9000 §8.2): a PATH_CHALLENGE with 8 unpredictable bytes
 * (§8.2.1), sent again with new bytes while unanswered, first after the new path's initial PTO and then twice as long each
 * time ({@link #nextInterval}: §8.2.1, not more often than an Initial would be sent), the path validated by a PATH_RESPONSE that
 * echoes any challenge still outstanding (§8.2.3). Until the path is validated at most three times what arrived on it
 * may be sent on it (§8.2.1, §9.3). The connection has no other path to fall back to, so a validation that times out
 * after {@code max(3 PTO, 6 kInitialRtt)} (§8.2.4) is counted as failed and started again while the peer keeps using
 * the path, which stays under the amplification limit. One path at a time: a new validation replaces the one under
 * way. Sans-I/O; the connection owns the frames and the clock.
 */
final class PathValidator {
    /** RFC 9002 §6.2.2's kInitialRtt, ns: §8.2.4's lower bound on the validation time uses six of them. */
    static final long INITIAL_RTT = 333_000_000L;
    /**
     * RFC 9002 §6.2.2: the PTO of a path without an RTT sample, {@code kInitialRtt + 4 * kInitialRtt / 2}; RFC 9000 §8.2.1:
     * "An endpoint SHOULD NOT probe a new path with packets containing a PATH_CHALLENGE frame more frequently than it
     * would send an Initial packet", and Initials are resent after that PTO, doubled each time (RFC 9002 §6.2.1).
     */
    static final long INITIAL_PTO = 3 * INITIAL_RTT;
    /** Outstanding challenges remembered (answers to older ones still validate, §8.2.3). */
    private static final int REMEMBERED = 8;

    private final RandomGenerator random;
    private final List<byte[]> outstanding = new ArrayList<>();
    private boolean validating;
    private boolean challengeDue;
    private long nextChallengeAt = Long.MAX_VALUE;
    private long deadline = Long.MAX_VALUE;
    private long challengeInterval = INITIAL_PTO;
    private long bytesReceived;
    private long bytesSent;
    private long started;
    private long validated;
    private long failed;
    private long challengesSent;

    PathValidator(RandomGenerator random) {
        this.random = random;
    }

    /** Starts validating a new path at {@code now}: a challenge is due at once. */
    void start(long now, long pto) {
        validating = true;
        challengeDue = true;
        outstanding.clear();
        bytesReceived = 0;
        bytesSent = 0;
        deadline = now + Math.max(3 * pto, 6 * INITIAL_RTT);
        nextChallengeAt = Long.MAX_VALUE;
        challengeInterval = firstInterval(pto);
        started++;
    }

    /** Whether a path is being validated (then its amplification limit applies). */
    boolean validating() {
        return validating;
    }

    /** Whether a PATH_CHALLENGE must go out in the next packet. */
    boolean challengeDue() {
        return validating && challengeDue;
    }

    /**
     * The data of the PATH_CHALLENGE to send now (remembered as outstanding); the next one is due after the current
     * interval, which then doubles (§8.2.1).
     */
    byte[] takeChallenge(long now) {
        byte[] data = new byte[8];
        random.nextBytes(data);
        if (outstanding.size() == REMEMBERED) {
            outstanding.removeFirst();
        }
        outstanding.add(data);
        challengeDue = false;
        nextChallengeAt = now + challengeInterval;
        challengeInterval = nextInterval(challengeInterval);
        challengesSent++;
        return data.clone();
    }

    /** A PATH_RESPONSE arrived; returns whether it validated the path (§8.2.3). */
    boolean onResponse(byte[] data) {
        if (!validating) {
            return false;
        }
        for (byte[] o : outstanding) {
            if (Arrays.equals(o, data)) {
                validating = false;
                challengeDue = false;
                outstanding.clear();
                nextChallengeAt = Long.MAX_VALUE;
                deadline = Long.MAX_VALUE;
                validated++;
                return true;
            }
        }
        return false;
    }

    /** Counts a datagram received while validating (the amplification allowance, §8.2.1). */
    void onReceived(int bytes) {
        if (validating) {
            bytesReceived += bytes;
        }
    }

    /** Counts a datagram sent while validating. */
    void onSent(int bytes) {
        if (validating) {
            bytesSent += bytes;
        }
    }

    /** How many bytes may still go out on the path: three times what arrived on it, less what was sent; unlimited once validated. */
    long allowance() {
        return validating ? Math.max(0, 3 * bytesReceived - bytesSent) : Long.MAX_VALUE;
    }

    /** When {@link #onTimeout} must run, or {@link Long#MAX_VALUE}. */
    long timer() {
        return validating ? Math.min(nextChallengeAt, deadline) : Long.MAX_VALUE;
    }

    /** At the timer: a new challenge after the interval without answer; at the deadline a failure, and a new round. */
    void onTimeout(long now, long pto) {
        if (!validating) {
            return;
        }
        if (now >= deadline) {
            failed++;
            challengeDue = true;
            nextChallengeAt = Long.MAX_VALUE;
            deadline = now + Math.max(3 * pto, 6 * INITIAL_RTT);
            challengeInterval = firstInterval(pto);
        } else if (now >= nextChallengeAt) {
            challengeDue = true;
            nextChallengeAt = Long.MAX_VALUE;
        }
    }

    /** The first resend interval on a new path: its initial PTO, or the current one when longer (§8.2.1, §8.2.4). */
    static long firstInterval(long pto) {
        return Math.max(pto, INITIAL_PTO);
    }

    /** The next resend interval: doubled, like an Initial's PTO (RFC 9002 §6.2.1), bounded so it cannot overflow. */
    static long nextInterval(long interval) {
        return Math.min(2 * interval, 1L << 50);
    }

    long started() { return started; }

    long validated() { return validated; }

    long failed() { return failed; }

    long challengesSent() { return challengesSent; }
}
