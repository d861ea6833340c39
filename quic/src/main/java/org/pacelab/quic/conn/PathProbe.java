package org.pacelab.quic.conn;

import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * The validation of a path other than the one a connection sends on (RFC 9000 §8.2, §9.6): a client probing a server's
 * preferred address before it moves there (§9.6.1), or a server answering, and itself probing, a client that reached its
 * preferred address (§9.6.2: "The server MUST probe on the path toward the client from its preferred address"). Datagrams
 * on the path carry only probing frames, PATH_CHALLENGE and PATH_RESPONSE, padded to 1200 bytes (§8.2.1, §8.2.2), to
 * {@link #dcid()}. A challenge goes again while unanswered, first after the new path's initial PTO, then twice as long
 * each time ({@link ChallengeSchedule}; §8.2.1: not more often than an Initial would be sent; RFC 9002 §6.2.1, §6.2.2);
 * after three times the larger of the current PTO or the new path's, from kInitialRtt (§8.2.4, about 3 s;
 * {@link ChallengeSchedule#validationTimeout}), the validation has failed and the connection stays where it is. A
 * server sends on the path at most three times what it received there (§8.2.1, §9.3.1); a client probing the server's
 * address is not limited. Sans-I/O: the connection owns the frames and the clock.
 */
final class PathProbe {
    private final NetworkPath path;
    private final byte[] dcid;
    private final long dcidSequence;
    private final boolean amplificationLimited;
    /** False for a path this endpoint only answers challenges on and never validates or moves to (§9.5). */
    private final boolean probing;
    private final ChallengeSchedule challenges;
    private final List<byte[]> responses = new ArrayList<>();
    private boolean validated;
    private boolean nonProbingReceived;
    private long bytesReceived;
    private long bytesSent;

    /**
     * @param dcid                 the peer's connection ID datagrams on the path go to
     * @param dcidSequence         its sequence number (the one a client moves to with the path)
     * @param amplificationLimited a server's limit of three times what arrived on the path, until validated
     * @param pto                  the current PTO without max_ack_delay and backoff, ns
     * @param maxAckDelay          the peer's max_ack_delay, ns (both for the validation timeout, §8.2.4)
     */
    PathProbe(NetworkPath path, byte[] dcid, long dcidSequence, boolean amplificationLimited, RandomGenerator random,
              long now, long pto, long maxAckDelay) {
        this(path, dcid, dcidSequence, amplificationLimited, true, random, now, pto, maxAckDelay);
    }

    /**
     * @param probing false: only PATH_RESPONSEs go on the path, no PATH_CHALLENGE, and it is never validated (a server
     *                without an unused connection ID of the client's, RFC 9000 §9.5)
     */
    PathProbe(NetworkPath path, byte[] dcid, long dcidSequence, boolean amplificationLimited, boolean probing,
              RandomGenerator random, long now, long pto, long maxAckDelay) {
        this.path = path;
        this.probing = probing;
        this.dcid = dcid.clone();
        this.dcidSequence = dcidSequence;
        this.amplificationLimited = amplificationLimited;
        this.challenges = new ChallengeSchedule(random);
        challenges.start(now, pto, maxAckDelay, probing);
    }

    NetworkPath path() { return path; }

    byte[] dcid() { return dcid; }

    long dcidSequence() { return dcidSequence; }

    boolean probing() { return probing; }

    /** Whether a datagram is due on the path: a challenge, or answers to the peer's challenges received on it. */
    boolean due() {
        return challengeDue() || !responses.isEmpty();
    }

    boolean challengeDue() {
        return !validated && challenges.due();
    }

    /** The data of a new PATH_CHALLENGE (remembered as outstanding); the next one is due after an interval that then doubles. */
    byte[] takeChallenge(long now) {
        return challenges.take(now);
    }

    /** A PATH_CHALLENGE arrived on this path: its PATH_RESPONSE goes back on it (§8.2.2). */
    void respond(byte[] data) {
        responses.add(data.clone());
    }

    /** The PATH_RESPONSE data waiting, taken. */
    List<byte[]> takeResponses() {
        List<byte[]> r = List.copyOf(responses);
        responses.clear();
        return r;
    }

    /** A PATH_RESPONSE arrived (on any path, §8.2.3); returns whether it validated this path now. */
    boolean onResponse(byte[] data) {
        if (validated || !challenges.answers(data)) {
            return false;
        }
        validated = true;
        challenges.stop();
        return true;
    }

    boolean validated() { return validated; }

    /** Server: a non-probing packet with the largest packet number so far arrived on the path (§9.6.2). */
    void onNonProbingReceived() {
        nonProbingReceived = true;
    }

    boolean nonProbingReceived() { return nonProbingReceived; }

    void onReceived(int bytes) {
        bytesReceived += bytes;
    }

    void onSent(int bytes) {
        bytesSent += bytes;
    }

    /** How many bytes may still go out on the path. */
    long allowance() {
        return amplificationLimited && !validated ? Math.max(0, 3 * bytesReceived - bytesSent) : Long.MAX_VALUE;
    }

    /** When {@link #onTimeout} must run, or {@link Long#MAX_VALUE}. */
    long timer() {
        return validated ? Long.MAX_VALUE : challenges.timer();
    }

    /** At the timer: a new challenge after the interval without answer; returns whether the validation failed (§8.2.4). */
    boolean onTimeout(long now) {
        return !validated && challenges.onTimeout(now);
    }
}
