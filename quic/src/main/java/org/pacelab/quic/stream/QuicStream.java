package org.pacelab.quic.stream;

import java.nio.ByteBuffer;

import org.pacelab.quic.QuicException;
import org.pacelab.quic.TransportError;

/**
 * One QUIC stream: its send side (RFC 9000 §3.1) and receive side (§3.2), with per-stream flow control
 * (§4.1). A unidirectional stream has only one side; the other is null.
 */
public final class QuicStream {
    /** Send-side states, RFC 9000 §3.1. */
    public enum SendState { READY, SEND, DATA_SENT, RESET_SENT, DATA_RECVD, RESET_RECVD }

    /** Receive-side states, RFC 9000 §3.2. */
    public enum RecvState { RECV, SIZE_KNOWN, DATA_RECVD, DATA_READ, RESET_RECVD, RESET_READ }

    public final long id;
    private final SendBuffer sendBuffer;
    private final ReceiveBuffer receiveBuffer;
    private final ReceiveWindow receiveWindow;

    private SendState sendState;
    private RecvState recvState;
    private long sendLimit;
    private long finalSize = -1;

    // frames waiting to be sent
    private long resetCode;
    private long resetFinalSize;
    private boolean stopSendingPending;
    private long stopSendingCode;
    private long blockedReportedAt = -1;

    private boolean writeBlocked;
    private boolean peerResetReported;
    private boolean completeReported;

    public QuicStream(long id, boolean canSend, boolean canReceive, long sendBufferCapacity, long peerInitialMaxStreamData,
                      long initialReceiveWindow, long maxReceiveWindow) {
        this.id = id;
        this.sendBuffer = canSend ? new SendBuffer(sendBufferCapacity) : null;
        this.sendState = canSend ? SendState.READY : null;
        this.sendLimit = peerInitialMaxStreamData;
        this.receiveBuffer = canReceive ? new ReceiveBuffer() : null;
        this.receiveWindow = canReceive ? new ReceiveWindow(initialReceiveWindow, maxReceiveWindow) : null;
        this.recvState = canReceive ? RecvState.RECV : null;
    }

    public boolean canSend() { return sendBuffer != null; }

    /** Bytes the application has read from the receive side. */
    public long bytesRead() { return receiveBuffer == null ? 0 : receiveBuffer.readOffset(); }

    public boolean canReceive() { return receiveBuffer != null; }

    public SendState sendState() { return sendState; }

    public RecvState recvState() { return recvState; }

    // ---- application side -------------------------------------------------------------------

    /** Application write; returns the number of bytes taken. */
    public int write(ByteBuffer data, boolean fin) {
        if (sendBuffer == null || sendState != SendState.READY && sendState != SendState.SEND) {
            return -1;
        }
        int n = sendBuffer.write(data);
        if (data.hasRemaining()) {
            writeBlocked = true;
        } else if (fin) {
            sendBuffer.finish();
        }
        if (n > 0 || fin) {
            sendState = SendState.SEND;
        }
        return n;
    }

    public void finish() {
        if (sendBuffer != null && (sendState == SendState.READY || sendState == SendState.SEND)) {
            sendBuffer.finish();
            sendState = SendState.SEND;
        }
    }

    /** Reads in-order bytes; -1 once the FIN has been read; 0 when none are available now. */
    public int read(ByteBuffer dst) {
        if (receiveBuffer == null) {
            return -1;
        }
        if (recvState == RecvState.RESET_RECVD || recvState == RecvState.RESET_READ) {
            recvState = RecvState.RESET_READ;
            return -1;
        }
        int n = receiveBuffer.read(dst);
        if (n > 0) {
            receiveWindow.onConsumed(n);
        }
        if (finalSize >= 0 && receiveBuffer.readOffset() == finalSize) {
            recvState = RecvState.DATA_READ;
            return n > 0 ? n : -1;
        }
        return n;
    }

    /** Abandons sending with RESET_STREAM (RFC 9000 §3.1); returns whether a RESET_STREAM is now due. */
    public boolean reset(long errorCode) {
        if (sendBuffer == null || sendState == SendState.RESET_SENT || sendState == SendState.RESET_RECVD
                || sendState == SendState.DATA_RECVD) {
            return false;
        }
        resetCode = errorCode;
        resetFinalSize = sendBuffer.sentOffset();
        sendState = SendState.RESET_SENT;
        sendBuffer.discard();
        return true;
    }

    /**
     * Asks the peer to stop sending (STOP_SENDING, RFC 9000 §3.5); returns whether a STOP_SENDING is now due.
     * Data that arrives until it is sent is discarded.
     */
    public boolean stopSending(long errorCode) {
        if (receiveBuffer == null || recvState != RecvState.RECV && recvState != RecvState.SIZE_KNOWN) {
            return false;
        }
        stopSendingPending = true;
        stopSendingCode = errorCode;
        return true;
    }

    // ---- frames from the peer ---------------------------------------------------------------

    /** A STREAM frame arrived with {@code data}; see {@link #onStreamFrame(long, ByteBuffer, int, int, boolean)}. */
    public long onStreamFrame(long offset, byte[] data, boolean fin) throws QuicException {
        return onStreamFrame(offset, ByteBuffer.wrap(data), 0, data.length, fin);
    }

    /**
     * A STREAM frame arrived whose {@code length} bytes of data are at index {@code index} of {@code src} (a view of
     * the decrypted packet: they are copied into the receive buffer, and the buffer's position is not moved). Checks the
     * final size (RFC 9000 §4.5: data beyond a known final size, a changed final size, or a final size below the data
     * received is a FINAL_SIZE_ERROR) and the stream's flow-control limit (§4.1: FLOW_CONTROL_ERROR) before any byte is
     * stored. Returns how many bytes beyond the previous highest offset it carried, for connection-level flow control.
     */
    public long onStreamFrame(long offset, ByteBuffer src, int index, int length, boolean fin) throws QuicException {
        if (receiveBuffer == null) {
            throw new QuicException(TransportError.STREAM_STATE_ERROR, 0x08, "STREAM frame on send-only stream " + id);
        }
        long end = offset + length;
        if (finalSize >= 0 && (end > finalSize || fin && end != finalSize)) {
            throw new QuicException(TransportError.FINAL_SIZE_ERROR, 0x08, "stream " + id + " data beyond its final size "
                    + finalSize + " (a STREAM frame ending at " + end + (fin ? " with FIN" : "") + "; RFC 9000 §4.5)");
        }
        if (fin && end < receiveBuffer.highestOffset()) {
            throw new QuicException(TransportError.FINAL_SIZE_ERROR, 0x08, "stream " + id + " final size " + end
                    + " below the data received up to " + receiveBuffer.highestOffset() + " (RFC 9000 §4.5)");
        }
        long before = receiveWindow.highestReceived();
        if (!receiveWindow.onReceived(end)) {
            throw new QuicException(TransportError.FLOW_CONTROL_ERROR, 0x08, "stream " + id + " data up to " + end
                    + " exceeds its flow-control limit " + receiveWindow.limit() + " (RFC 9000 §4.1)");
        }
        if (recvState == RecvState.RESET_RECVD || recvState == RecvState.RESET_READ) {
            return Math.max(0, end - before);
        }
        if (fin && finalSize < 0) {
            finalSize = end;
            recvState = RecvState.SIZE_KNOWN;
        }
        if (!stopSendingPending) {
            receiveBuffer.insert(offset, src, index, length);
        }
        if (finalSize >= 0 && receiveBuffer.readOffset() + receiveBuffer.readable() == finalSize
                && recvState == RecvState.SIZE_KNOWN) {
            recvState = RecvState.DATA_RECVD;
        }
        return Math.max(0, receiveWindow.highestReceived() - before);
    }

    /** RESET_STREAM from the peer; returns the new bytes for connection-level flow control. */
    public long onResetStream(long errorCode, long size) throws QuicException {
        if (receiveBuffer == null) {
            throw new QuicException(TransportError.STREAM_STATE_ERROR, 0x04, "RESET_STREAM on send-only stream " + id);
        }
        if (finalSize >= 0 && size != finalSize || size < receiveBuffer.highestOffset()) {
            throw new QuicException(TransportError.FINAL_SIZE_ERROR, 0x04, "stream " + id + " reset with a changed final size");
        }
        long before = receiveWindow.highestReceived();
        if (!receiveWindow.onReceived(size)) {
            throw new QuicException(TransportError.FLOW_CONTROL_ERROR, 0x04, "stream " + id + " final size exceeds its limit");
        }
        finalSize = size;
        if (recvState != RecvState.DATA_READ && recvState != RecvState.RESET_READ) {
            recvState = RecvState.RESET_RECVD;
            receiveBuffer.discard();
            // bytes never read still count as consumed for connection flow control
        }
        return Math.max(0, receiveWindow.highestReceived() - before);
    }

    /**
     * STOP_SENDING from the peer: reset our send side with its code (RFC 9000 §3.5); returns whether a
     * RESET_STREAM is now due.
     */
    public boolean onStopSending(long errorCode) throws QuicException {
        if (sendBuffer == null) {
            throw new QuicException(TransportError.STREAM_STATE_ERROR, 0x05, "STOP_SENDING on receive-only stream " + id);
        }
        return reset(errorCode);
    }

    /** MAX_STREAM_DATA from the peer. */
    public boolean onMaxStreamData(long max) throws QuicException {
        if (sendBuffer == null) {
            throw new QuicException(TransportError.STREAM_STATE_ERROR, 0x11, "MAX_STREAM_DATA on receive-only stream " + id);
        }
        if (max > sendLimit) {
            sendLimit = max;
            return true;
        }
        return false;
    }

    // ---- sending ----------------------------------------------------------------------------

    public SendBuffer sendBuffer() { return sendBuffer; }

    public ReceiveWindow receiveWindow() { return receiveWindow; }

    public long sendLimit() { return sendLimit; }

    /** Whether stream data (new within flow control, retransmission, or FIN) waits to be sent. */
    public boolean hasDataToSend() {
        return sendBuffer != null && (sendState == SendState.SEND || sendState == SendState.DATA_SENT)
                && sendBuffer.hasDataToSend(sendLimit);
    }

    /**
     * Notes that the stream had data but the peer's limit stopped it; returns whether a STREAM_DATA_BLOCKED is
     * due (once per limit, RFC 9000 §4.1).
     */
    public boolean noteFlowBlocked() {
        if (sendBuffer != null && sendBuffer.unsent() > 0 && sendBuffer.sentOffset() >= sendLimit
                && blockedReportedAt != sendLimit) {
            blockedReportedAt = sendLimit;
            return true;
        }
        return false;
    }

    public long resetCode() { return resetCode; }

    public long resetFinalSize() { return resetFinalSize; }

    /** Whether our RESET_STREAM is still unacknowledged (so a lost one must be sent again). */
    public boolean resetUnacknowledged() {
        return sendState == SendState.RESET_SENT;
    }

    public void onResetAcked() {
        sendState = SendState.RESET_RECVD;
    }

    public boolean stopSendingPending() { return stopSendingPending; }

    public long stopSendingCode() { return stopSendingCode; }

    public void stopSendingSent() { stopSendingPending = false; }

    /** Whether a STOP_SENDING still makes sense: the peer may still be sending (a lost one is sent again then). */
    public boolean peerMaySend() {
        return recvState == RecvState.RECV || recvState == RecvState.SIZE_KNOWN;
    }

    /** Whether a MAX_STREAM_DATA update should be sent. */
    public boolean windowUpdateNeeded() {
        return receiveWindow != null && (recvState == RecvState.RECV) && receiveWindow.updateNeeded();
    }

    /** Called after a piece with the FIN was sent. */
    public void onFinSent() {
        if (sendState == SendState.SEND) {
            sendState = SendState.DATA_SENT;
        }
    }

    /** Called after stream data was acknowledged; returns true when the send side just completed. */
    public boolean onDataAcked(long offset, int length, boolean fin) {
        if (sendBuffer == null || sendState == SendState.RESET_SENT || sendState == SendState.RESET_RECVD) {
            return false;
        }
        sendBuffer.onAcked(offset, length, fin);
        if (sendBuffer.allAcked() && sendState != SendState.DATA_RECVD) {
            sendState = SendState.DATA_RECVD;
            return true;
        }
        return false;
    }

    public void onDataLost(long offset, int length, boolean fin) {
        if (sendBuffer == null || sendState == SendState.RESET_SENT || sendState == SendState.RESET_RECVD
                || sendState == SendState.DATA_RECVD) {
            return;
        }
        sendBuffer.onLost(offset, length, fin);
    }

    /** Whether the application should be told the stream is writable again. */
    public boolean takeWritable() {
        if (writeBlocked && sendBuffer != null && sendBuffer.writable() > 0
                && (sendState == SendState.READY || sendState == SendState.SEND)) {
            writeBlocked = false;
            return true;
        }
        return false;
    }

    /** Whether the peer's reset should be reported to the application (once). */
    public boolean takePeerReset() {
        if (recvState == RecvState.RESET_RECVD && !peerResetReported) {
            peerResetReported = true;
            return true;
        }
        return false;
    }

    public boolean takeComplete() {
        if (sendState == SendState.DATA_RECVD && !completeReported) {
            completeReported = true;
            return true;
        }
        return false;
    }

    /** In-order bytes or the end of stream can be read now. */
    public boolean isReadable() {
        if (receiveBuffer == null) {
            return false;
        }
        return receiveBuffer.readable() > 0
                || finalSize >= 0 && receiveBuffer.readOffset() == finalSize && recvState != RecvState.DATA_READ
                || recvState == RecvState.RESET_RECVD;
    }

    /** Whether both sides reached a terminal state, so the stream can be forgotten (RFC 9000 §3). */
    public boolean isFinished() {
        boolean sendDone = sendBuffer == null || sendState == SendState.DATA_RECVD || sendState == SendState.RESET_RECVD;
        boolean recvDone = receiveBuffer == null || recvState == RecvState.DATA_READ || recvState == RecvState.RESET_READ;
        return sendDone && recvDone && !stopSendingPending;
    }

    /** Bytes the peer sent that count toward the connection limit but will never be read (after a reset). */
    public long finalSize() { return finalSize; }
}
