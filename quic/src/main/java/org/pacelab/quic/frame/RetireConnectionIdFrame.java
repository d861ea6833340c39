package org.pacelab.quic.frame;

/** RETIRE_CONNECTION_ID (RFC 9000 §19.16). */
public record RetireConnectionIdFrame(long sequenceNumber) implements Frame {
    @Override
    public long type() { return FrameType.RETIRE_CONNECTION_ID; }
}
