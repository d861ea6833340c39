package org.pacelab.quic.frame;

/** PING (RFC 9000 §19.2): ack-eliciting, no content. */
public record PingFrame() implements Frame {
    public static final PingFrame INSTANCE = new PingFrame();

    @Override
    public long type() { return FrameType.PING; }
}
