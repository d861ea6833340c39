package org.pacelab.quic.cc;

/**
 * The recovery period of RFC 9002 §7.3.2: it starts when a congestion event is acted on and covers every
 * packet sent up to that time; it ends (for {@link #inRecovery()}) once a packet sent after its start is
 * acknowledged. Packets sent before the start never grow the window and their losses start no new
 * congestion event ({@link #covers}). Persistent congestion clears it (RFC 9002 §B.8:
 * {@code congestion_recovery_start_time = 0}).
 */
final class RecoveryPeriod {
    private boolean started;
    private long startTime;
    private boolean ended = true;

    /** RFC 9002 §B.4 InCongestionRecovery(sent_time). */
    boolean covers(long sentTime) {
        return started && sentTime <= startTime;
    }

    /** A congestion event was acted on at {@code now}. */
    void enter(long now) {
        started = true;
        startTime = now;
        ended = false;
    }

    /** An acknowledged packet was sent at {@code sentTime}; the period ends if it was sent after the start. */
    void onAcked(long sentTime) {
        if (started && sentTime > startTime) {
            ended = true;
        }
    }

    /** Whether the sender is in recovery (between the congestion event and the first ACK of a later packet). */
    boolean inRecovery() {
        return started && !ended;
    }

    /** Persistent congestion: no recovery period any more. */
    void clear() {
        started = false;
        ended = true;
    }

    long startTime() { return startTime; }

    boolean started() { return started; }

    /** A copy of the state, for undo. */
    Snapshot snapshot() {
        return new Snapshot(started, startTime, ended);
    }

    void restore(Snapshot s) {
        started = s.started;
        startTime = s.startTime;
        ended = s.ended;
    }

    record Snapshot(boolean started, long startTime, boolean ended) {}
}
