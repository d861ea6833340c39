package org.pacelab.quic.conn;

import java.util.random.RandomGenerator;

/**
 * Validation of the path a connection has moved to (RFC 9000 §8.2): a PATH_CHALLENGE with 8 unpredictable bytes
 * (§8.2.1), sent again with new bytes while unanswered, first after the new path's initial PTO and then twice as long each
 * time ({@link ChallengeSchedule}: §8.2.1, not more often than an Initial would be sent), the path validated by a
 * PATH_RESPONSE that echoes any challenge still outstanding (§8.2.3). Until the path is validated at most three times
 * what arrived on it may be sent on it (§8.2.1, §9.3). The connection has no other path to fall back to, so a validation
 * that times out after three times the larger of the current PTO or the new path's, from kInitialRtt (§8.2.4, about
 * 3 s; {@link ChallengeSchedule#validationTimeout}), is counted as failed and started again while the peer keeps using
 * the path, which stays under the amplification limit. One path at a time: a new validation replaces the one under
 * way. Sans-I/O; the connection owns the frames and the clock.
 */
final class PathValidator {
    private final ChallengeSchedule challenges;
    private boolean validating;
    private long bytesReceived;
    private long bytesSent;
    private long started;
    private long validated;
    private long failed;
    private long challengesSent;

    PathValidator(RandomGenerator random) {
        this.challenges = new ChallengeSchedule(random);
    }

    /**
     * Starts validating a new path at {@code now}: a challenge is due at once.
     *
     * @param pto         the current PTO without max_ack_delay and backoff, ns
     * @param maxAckDelay the peer's max_ack_delay, ns
     */
    void start(long now, long pto, long maxAckDelay) {
        validating = true;
        challenges.stop();
        challenges.start(now, pto, maxAckDelay, true);
        bytesReceived = 0;
        bytesSent = 0;
        started++;
    }

    /** Whether a path is being validated (then its amplification limit applies). */
    boolean validating() {
        return validating;
    }

    /** Whether a PATH_CHALLENGE must go out in the next packet. */
    boolean challengeDue() {
        return validating && challenges.due();
    }

    /**
     * The data of the PATH_CHALLENGE to send now (remembered as outstanding); the next one is due after the current
     * interval, which then doubles (§8.2.1).
     */
    byte[] takeChallenge(long now) {
        challengesSent++;
        return challenges.take(now);
    }

    /** A PATH_RESPONSE arrived; returns whether it validated the path (§8.2.3). */
    boolean onResponse(byte[] data) {
        if (!validating || !challenges.answers(data)) {
            return false;
        }
        validating = false;
        challenges.stop();
        validated++;
        return true;
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
        return validating ? challenges.timer() : Long.MAX_VALUE;
    }

    /** At the timer: a new challenge after the interval without answer; at the deadline a failure, and a new round. */
    void onTimeout(long now, long pto, long maxAckDelay) {
        if (validating && challenges.onTimeout(now)) {
            failed++;
            challenges.start(now, pto, maxAckDelay, true); // the challenges sent so far stay outstanding
        }
    }

    long started() { return started; }

    long validated() { return validated; }

    long failed() { return failed; }

    long challengesSent() { return challengesSent; }
}
