package org.pacelab.quic.frame;

/** DATA_BLOCKED (RFC 9000 §19.12). */
public record DataBlockedFrame(long limit) implements Frame {
    @Override
    public long type() { return FrameType.DATA_BLOCKED; }
}
