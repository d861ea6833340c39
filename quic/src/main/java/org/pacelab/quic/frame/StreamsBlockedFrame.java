package org.pacelab.quic.frame;

/** STREAMS_BLOCKED (RFC 9000 §19.14); type 0x16 for bidirectional, 0x17 for unidirectional streams. */
public record StreamsBlockedFrame(boolean bidirectional, long limit) implements Frame {
    @Override
    public long type() { return bidirectional ? FrameType.STREAMS_BLOCKED_BIDI : FrameType.STREAMS_BLOCKED_UNI; }
}
