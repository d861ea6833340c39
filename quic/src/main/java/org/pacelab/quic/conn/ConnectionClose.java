package org.pacelab.quic.conn;

import org.pacelab.quic.QuicException;
import org.pacelab.quic.TransportError;
import org.pacelab.quic.frame.ConnectionCloseFrame;
import org.pacelab.quic.frame.FrameCodec;
import org.pacelab.quic.packet.EncryptionLevel;

/**
 * How a connection ends (RFC 9000 §10): the closing state with our CONNECTION_CLOSE, sent again at a decreasing rate
 * while packets keep arriving (§10.2.1), the draining state after the peer's (§10.2.2), the end of either period, and
 * the close the application and reports are told about (code, reason, who closed; the first one counts).
 */
final class ConnectionClose {
    /** Reason phrases are cut to this many characters, so the frame fits in a packet. */
    private static final int MAX_REASON = 200;

    private ConnectionCloseFrame frame;
    private boolean packetPending;
    private int packetsSinceClose;
    private long deadline = Long.MAX_VALUE;

    private boolean reported;
    private long errorCode;
    private boolean application;
    private String reason = "";
    private boolean local;

    /** Our CONNECTION_CLOSE for a transport error. */
    static ConnectionCloseFrame transportClose(QuicException e) {
        return new ConnectionCloseFrame(false, e.errorCode(), e.frameType(), truncate(e.getMessage()));
    }

    /** Our CONNECTION_CLOSE for the application's close. */
    static ConnectionCloseFrame applicationClose(long code, String reason) {
        return new ConnectionCloseFrame(true, code, 0, truncate(reason));
    }

    /**
     * Enters the closing state (§10.2.1): {@code frame} goes in the next datagram; the period ends at {@code deadline},
     * or, for Long.MAX_VALUE, three PTOs after the frame left ({@link #onPacketSent}).
     */
    void closing(ConnectionCloseFrame frame, long deadline) {
        this.frame = frame;
        this.packetPending = true;
        this.deadline = deadline;
    }

    /** Enters the draining state (§10.2.2, or §10.3.1 after a stateless reset): nothing more is sent until {@code deadline}. */
    void draining(long deadline) {
        this.deadline = deadline;
    }

    /** RFC 9000 §10.2.1: a packet arrived while closing; it is answered with CONNECTION_CLOSE, at a decreasing rate. */
    void onPacketWhileClosing() {
        packetsSinceClose++;
        if (Integer.bitCount(packetsSinceClose) == 1) {
            packetPending = true;
        }
    }

    /** Whether a CONNECTION_CLOSE datagram is due; it is then no longer pending. */
    boolean takePacketDue() {
        boolean due = packetPending;
        packetPending = false;
        return due;
    }

    boolean packetPending() {
        return packetPending;
    }

    /**
     * The CONNECTION_CLOSE for a packet of {@code level} with {@code room} bytes: before the handshake is confirmed an
     * application close goes in Initial and Handshake packets as a transport close with APPLICATION_ERROR (§10.2.3);
     * the reason is left out when the frame would not fit.
     */
    ConnectionCloseFrame frameFor(EncryptionLevel level, int room) {
        ConnectionCloseFrame f = frame;
        if (f.application() && level != EncryptionLevel.ONE_RTT) {
            f = new ConnectionCloseFrame(false, TransportError.APPLICATION_ERROR.code, 0, "");
        }
        if (FrameCodec.encodedLength(f) > room) {
            f = new ConnectionCloseFrame(f.application(), f.errorCode(), f.frameType(), "");
        }
        return f;
    }

    /** The CONNECTION_CLOSE left; a closing period not yet started ends at {@code deadline}. */
    void onPacketSent(long deadline) {
        if (this.deadline == Long.MAX_VALUE) {
            this.deadline = deadline;
        }
    }

    /** When the closing or draining period ends. */
    long deadline() {
        return deadline;
    }

    /** Records how the connection closed; returns false if it was recorded before (the first close counts). */
    boolean report(long errorCode, boolean application, String reason, boolean local) {
        if (reported) {
            return false;
        }
        reported = true;
        this.errorCode = errorCode;
        this.application = application;
        this.reason = reason == null ? "" : reason;
        this.local = local;
        return true;
    }

    boolean reported() { return reported; }

    long errorCode() { return errorCode; }

    boolean application() { return application; }

    String reason() { return reason; }

    boolean local() { return local; }

    private static String truncate(String s) {
        if (s == null) {
            return "";
        }
        return s.length() > MAX_REASON ? s.substring(0, MAX_REASON) : s;
    }
}
