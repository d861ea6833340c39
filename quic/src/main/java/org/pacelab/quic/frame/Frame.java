package org.pacelab.quic.frame;

/** A QUIC v1 frame (RFC 9000 §19). Each frame type is a record implementing this interface. */
public interface Frame {
    /** The frame type as it appears on the wire (the lowest value for frame families). */
    long type();

    /** Whether receiving this frame requires an acknowledgment (RFC 9002 §2). */
    default boolean ackEliciting() { return true; }

    /** Whether the packet containing this frame counts toward bytes in flight (RFC 9002 §2). */
    default boolean countsInFlight() { return true; }
}
