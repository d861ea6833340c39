package org.pacelab.quic.frame;

/** RESET_STREAM (RFC 9000 §19.4). */
public record ResetStreamFrame(long streamId, long errorCode, long finalSize) implements Frame {
    @Override
    public long type() { return FrameType.RESET_STREAM; }
}
