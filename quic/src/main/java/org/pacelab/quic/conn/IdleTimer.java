package org.pacelab.quic.conn;

/**
 * The idle timeout (RFC 9000 §10.1): the smaller of both endpoints' max_idle_timeout, at least three PTOs, restarted
 * by every packet processed and by the first ack-eliciting packet sent after one. When it expires the connection
 * closes silently.
 */
final class IdleTimer {
    private final long localTimeout;
    private long peerTimeout;
    private long deadline;
    private boolean sentElicitingSinceReceive;

    /** {@code localTimeout}: our max_idle_timeout in ns, 0 for none. */
    IdleTimer(long localTimeout, long now) {
        this.localTimeout = localTimeout;
        this.deadline = now + (localTimeout > 0 ? localTimeout : Long.MAX_VALUE / 4);
    }

    /** The peer's max_idle_timeout in ns (0: none). */
    void setPeerTimeout(long peerTimeout) {
        this.peerTimeout = peerTimeout;
    }

    /** A packet was processed: the timer restarts. */
    void onPacketReceived(long now, long ptoBase) {
        restart(now, ptoBase);
        sentElicitingSinceReceive = false;
    }

    /** An ack-eliciting packet was sent: the timer restarts if nothing was sent since the last packet received. */
    void onAckElicitingSent(long now, long ptoBase) {
        if (!sentElicitingSinceReceive) {
            sentElicitingSinceReceive = true;
            restart(now, ptoBase);
        }
    }

    long deadline() {
        return deadline;
    }

    private void restart(long now, long ptoBase) {
        long timeout = effectiveTimeout(ptoBase);
        deadline = timeout == 0 ? Long.MAX_VALUE : now + timeout;
    }

    private long effectiveTimeout(long ptoBase) {
        long t;
        if (localTimeout == 0) {
            t = peerTimeout;
        } else if (peerTimeout == 0) {
            t = localTimeout;
        } else {
            t = Math.min(localTimeout, peerTimeout);
        }
        return t == 0 ? 0 : Math.max(t, 3 * ptoBase);
    }
}
