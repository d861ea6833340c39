package org.pacelab.quic.frame;

/** MAX_STREAMS (RFC 9000 §19.11); type 0x12 for bidirectional, 0x13 for unidirectional streams. */
public record MaxStreamsFrame(boolean bidirectional, long max) implements Frame {
    @Override
    public long type() { return bidirectional ? FrameType.MAX_STREAMS_BIDI : FrameType.MAX_STREAMS_UNI; }
}
