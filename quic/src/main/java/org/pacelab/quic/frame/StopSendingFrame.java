package org.pacelab.quic.frame;

/** STOP_SENDING (RFC 9000 §19.5). */
public record StopSendingFrame(long streamId, long errorCode) implements Frame {
    @Override
    public long type() { return FrameType.STOP_SENDING; }
}
