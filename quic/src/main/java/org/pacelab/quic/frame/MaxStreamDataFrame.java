package org.pacelab.quic.frame;

/** MAX_STREAM_DATA (RFC 9000 §19.10). */
public record MaxStreamDataFrame(long streamId, long max) implements Frame {
    @Override
    public long type() { return FrameType.MAX_STREAM_DATA; }
}
