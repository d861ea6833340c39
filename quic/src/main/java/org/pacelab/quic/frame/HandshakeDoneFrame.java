package org.pacelab.quic.frame;

/** HANDSHAKE_DONE (RFC 9000 §19.20): sent by the server to confirm the handshake. */
public record HandshakeDoneFrame() implements Frame {
    public static final HandshakeDoneFrame INSTANCE = new HandshakeDoneFrame();

    @Override
    public long type() { return FrameType.HANDSHAKE_DONE; }
}
