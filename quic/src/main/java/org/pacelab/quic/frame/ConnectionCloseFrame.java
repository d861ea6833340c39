package org.pacelab.quic.frame;

import java.util.Objects;

/**
 * CONNECTION_CLOSE (RFC 9000 §19.19): type 0x1c for transport errors (with the offending frame type),
 * 0x1d for application errors (no frame type field; {@code frameType} is 0). Not ack-eliciting and,
 * per RFC 9002 §2, a packet holding only this frame does not count toward bytes in flight.
 * The reason phrase is encoded as UTF-8; on decoding, invalid UTF-8 is replaced, never rejected.
 */
public record ConnectionCloseFrame(boolean application, long errorCode, long frameType, String reason) implements Frame {
    public ConnectionCloseFrame {
        Objects.requireNonNull(reason, "reason");
    }

    @Override
    public long type() { return application ? FrameType.CONNECTION_CLOSE_APP : FrameType.CONNECTION_CLOSE; }

    @Override
    public boolean ackEliciting() { return false; }

    @Override
    public boolean countsInFlight() { return false; }
}
