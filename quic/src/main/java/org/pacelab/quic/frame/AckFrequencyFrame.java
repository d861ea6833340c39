package org.pacelab.quic.frame;

/**
 * ACK_FREQUENCY (draft-ietf-quic-ack-frequency §4): how its sender wants to be acknowledged. The recipient
 * acknowledges once more than {@code ackElicitingThreshold} ack-eliciting packets arrived or
 * {@code requestMaxAckDelay} passed, and at once on reordering by {@code reorderingThreshold} (0: never).
 * Frames with a sequence number not above the largest seen are ignored.
 *
 * @param requestMaxAckDelay microseconds (the max_ack_delay transport parameter is in milliseconds)
 */
public record AckFrequencyFrame(long sequenceNumber, long ackElicitingThreshold, long requestMaxAckDelay,
                                long reorderingThreshold) implements Frame {
    @Override
    public long type() { return FrameType.ACK_FREQUENCY; }
}
