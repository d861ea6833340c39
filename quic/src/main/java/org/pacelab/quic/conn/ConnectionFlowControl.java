package org.pacelab.quic.conn;

import org.pacelab.quic.stream.ReceiveWindow;

/**
 * Connection-level flow control (RFC 9000 §4.1): the peer's MAX_DATA limit on what we send, and our own
 * receive window with its MAX_DATA updates.
 */
public final class ConnectionFlowControl {
    private long peerMaxData;
    private long sent;
    private final ReceiveWindow receive;
    private long blockedReportedAt = -1;

    public ConnectionFlowControl(long initialWindow, long maxWindow) {
        this.receive = new ReceiveWindow(initialWindow, maxWindow);
    }

    /** Bytes of new stream data we may still send. */
    public long sendCredit() { return Math.max(0, peerMaxData - sent); }

    public void onNewDataSent(long bytes) { sent += bytes; }

    public long sent() { return sent; }

    /** MAX_DATA (or initial_max_data) from the peer; returns whether it raised the limit. */
    public boolean setPeerMaxData(long max) {
        if (max > peerMaxData) {
            peerMaxData = max;
            return true;
        }
        return false;
    }

    public long peerMaxData() { return peerMaxData; }

    /**
     * Notes that stream data waits but the connection limit stops it; returns whether a DATA_BLOCKED is due
     * (once per limit, RFC 9000 §19.12).
     */
    public boolean noteBlocked() {
        if (sendCredit() == 0 && blockedReportedAt != peerMaxData) {
            blockedReportedAt = peerMaxData;
            return true;
        }
        return false;
    }

    public ReceiveWindow receive() { return receive; }

    /** The application consumed {@code bytes}; returns whether a MAX_DATA update is due. */
    public boolean onConsumed(long bytes) {
        receive.onConsumed(bytes);
        return receive.updateNeeded();
    }

    /** The MAX_DATA value to send now (the window may grow, see {@link ReceiveWindow#update}). */
    public long maxDataUpdate(long now, long srtt) {
        return receive.update(now, srtt);
    }
}
