package org.pacelab.quic.stream;

import org.pacelab.quic.frame.Frame;
import org.pacelab.quic.frame.FrameType;

/**
 * What a sent packet remembers of a STREAM frame: which bytes of which stream (not the bytes themselves,
 * which stay in the stream's {@link SendBuffer} until acknowledged).
 */
public record StreamDataSent(long streamId, long offset, int length, boolean fin) implements Frame {
    @Override
    public long type() { return FrameType.STREAM; }
}
