package org.pacelab.quic.frame;

/**
 * A run of {@code length} consecutive PADDING bytes (RFC 9000 §19.1). Not ack-eliciting, but counts
 * toward bytes in flight (RFC 9002 §2).
 */
public record PaddingFrame(int length) implements Frame {
    public PaddingFrame {
        if (length < 1) {
            throw new IllegalArgumentException("padding length must be >= 1, not " + length);
        }
    }

    @Override
    public long type() { return FrameType.PADDING; }

    @Override
    public boolean ackEliciting() { return false; }
}
