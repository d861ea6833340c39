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
    private boolean maxDataPending;
    private boolean blockedPending;
    private long blockedReportedAt = -1;

    public ConnectionFlowControl(long initialWindow, long maxWindow) {
        this.receive = new ReceiveWindow(initialWindow, maxWindow);
    }

    /** Bytes of new stream data we may still send. */
    public long sendCredit() { return Math.max(0, peerMaxData - sent); }

    public void onNewDataSent(long bytes) { sent += bytes; }

    public long sent() { return sent; }

    public void setPeerMaxData(long max) {
        if (max > peerMaxData) {
            peerMaxData = max;
            blockedPending = false;
        }
    }

    public long peerMaxData() { return peerMaxData; }

    /** Notes that stream data waits but the connection limit stops it (DATA_BLOCKED, RFC 9000 §19.12). */
    public void noteBlocked() {
        if (sendCredit() == 0 && blockedReportedAt != peerMaxData) {
            blockedPending = true;
            blockedReportedAt = peerMaxData;
        }
    }

    public boolean blockedPending() { return blockedPending; }

    public void blockedSent() { blockedPending = false; }

    public ReceiveWindow receive() { return receive; }

    public void onConsumed(long bytes) {
        receive.onConsumed(bytes);
        if (receive.updateNeeded()) {
            maxDataPending = true;
        }
    }

    public boolean maxDataPending() { return maxDataPending; }

    /** Returns the new MAX_DATA value and clears the pending flag. */
    public long takeMaxData(long now, long srtt) {
        maxDataPending = false;
        return receive.update(now, srtt);
    }

    public void onMaxDataLost() { maxDataPending = true; }
}
