package org.pacelab.quic.frame;

/** IMMEDIATE_ACK (draft-ietf-quic-ack-frequency §5): the recipient should acknowledge at once. */
public record ImmediateAckFrame() implements Frame {
    public static final ImmediateAckFrame INSTANCE = new ImmediateAckFrame();

    @Override
    public long type() { return FrameType.IMMEDIATE_ACK; }
}
