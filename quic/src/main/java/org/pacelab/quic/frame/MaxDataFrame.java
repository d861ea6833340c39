package org.pacelab.quic.frame;

/** MAX_DATA (RFC 9000 §19.9). */
public record MaxDataFrame(long max) implements Frame {
    @Override
    public long type() { return FrameType.MAX_DATA; }
}
