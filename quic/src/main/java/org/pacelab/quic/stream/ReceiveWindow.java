package org.pacelab.quic.stream;

/**
 * Receive-side flow control for a stream or the connection (RFC 9000 §4.1, §4.2): the limit advertised
 * to the peer, and when to raise it as the application consumes data. The window grows (doubling up to a
 * maximum) when updates are needed faster than every two round trips, so a fast path is not held back by
 * a small initial window (the auto-tuning quinn and quiche also use).
 */
public final class ReceiveWindow {
    private long window;
    private final long maxWindow;
    private long advertised;
    private long consumed;
    private long highestReceived;
    private long lastUpdateTime = Long.MIN_VALUE;

    public ReceiveWindow(long initialWindow, long maxWindow) {
        this.window = initialWindow;
        this.maxWindow = Math.max(initialWindow, maxWindow);
        this.advertised = initialWindow;
    }

    /** The limit currently advertised (MAX_DATA / MAX_STREAM_DATA value). */
    public long limit() { return advertised; }

    /** Records that the peer sent up to {@code offset}; false if that exceeds the limit (FLOW_CONTROL_ERROR). */
    public boolean onReceived(long offset) {
        if (offset > advertised) {
            return false;
        }
        highestReceived = Math.max(highestReceived, offset);
        return true;
    }

    /** Records that the peer sent {@code bytes} more (connection level, summing new stream bytes). */
    public boolean onReceivedMore(long bytes) {
        return onReceived(highestReceived + bytes);
    }

    public long highestReceived() { return highestReceived; }

    /** The application consumed {@code bytes} more. */
    public void onConsumed(long bytes) {
        consumed += bytes;
    }

    /** Whether a window update should be sent: less than half the window remains (RFC 9000 §4.2). */
    public boolean updateNeeded() {
        return advertised - consumed < window / 2;
    }

    /** Raises the limit; returns the new value to advertise. */
    public long update(long now, long smoothedRtt) {
        if (lastUpdateTime != Long.MIN_VALUE && now - lastUpdateTime < 2 * smoothedRtt) {
            window = Math.min(maxWindow, window * 2);
        }
        lastUpdateTime = now;
        advertised = Math.max(advertised, consumed + window);
        return advertised;
    }

    public long window() { return window; }
}
