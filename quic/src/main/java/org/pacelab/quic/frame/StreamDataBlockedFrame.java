package org.pacelab.quic.frame;

/** STREAM_DATA_BLOCKED (RFC 9000 §19.13). */
public record StreamDataBlockedFrame(long streamId, long limit) implements Frame {
    @Override
    public long type() { return FrameType.STREAM_DATA_BLOCKED; }
}
