package org.pacelab.quic.frame;

import org.pacelab.quic.packet.PacketType;

/**
 * Which frame types each packet type may carry, RFC 9000 §12.4 Table 3. A frame outside its
 * permitted packet types is a connection error of type PROTOCOL_VIOLATION.
 */
public final class FrameRules {
    private static final int I = 1;      // Initial
    private static final int H = 2;      // Handshake
    private static final int Z = 4;      // 0-RTT
    private static final int O = 8;      // 1-RTT

    private static final int[] ALLOWED = new int[(int) FrameType.HANDSHAKE_DONE + 1];

    static {
        set(FrameType.PADDING, I | H | Z | O);
        set(FrameType.PING, I | H | Z | O);
        set(FrameType.ACK, I | H | O);
        set(FrameType.ACK_ECN, I | H | O);
        set(FrameType.RESET_STREAM, Z | O);
        set(FrameType.STOP_SENDING, Z | O);
        set(FrameType.CRYPTO, I | H | O);
        set(FrameType.NEW_TOKEN, O);
        for (long t = 0x08; t <= 0x0f; t++) {
            set(t, Z | O);
        }
        set(FrameType.MAX_DATA, Z | O);
        set(FrameType.MAX_STREAM_DATA, Z | O);
        set(FrameType.MAX_STREAMS_BIDI, Z | O);
        set(FrameType.MAX_STREAMS_UNI, Z | O);
        set(FrameType.DATA_BLOCKED, Z | O);
        set(FrameType.STREAM_DATA_BLOCKED, Z | O);
        set(FrameType.STREAMS_BLOCKED_BIDI, Z | O);
        set(FrameType.STREAMS_BLOCKED_UNI, Z | O);
        set(FrameType.NEW_CONNECTION_ID, Z | O);
        set(FrameType.RETIRE_CONNECTION_ID, Z | O);
        set(FrameType.PATH_CHALLENGE, Z | O);
        set(FrameType.PATH_RESPONSE, O);
        set(FrameType.CONNECTION_CLOSE, I | H | Z | O);
        set(FrameType.CONNECTION_CLOSE_APP, Z | O);
        set(FrameType.HANDSHAKE_DONE, O);
    }

    private FrameRules() {
    }

    private static void set(long type, int mask) {
        ALLOWED[(int) type] = mask;
    }

    /** Whether a frame of {@code frameType} may appear in a packet of {@code packetType} (Table 3). */
    public static boolean allowedIn(long frameType, PacketType packetType) {
        int bit = switch (packetType) {
            case INITIAL -> I;
            case HANDSHAKE -> H;
            case ZERO_RTT -> Z;
            case ONE_RTT -> O;
            case RETRY, VERSION_NEGOTIATION -> 0;
        };
        if (frameType == FrameType.ACK_FREQUENCY) {
            // draft-ietf-quic-ack-frequency §3: not in 0-RTT (support is not remembered across connections)
            return bit == O;
        }
        if (frameType == FrameType.IMMEDIATE_ACK) {
            return (bit & (Z | O)) != 0;
        }
        if (frameType < 0 || frameType >= ALLOWED.length) {
            return false;
        }
        return (ALLOWED[(int) frameType] & bit) != 0;
    }

    /** Whether {@code frame} may appear in a packet of {@code packetType} (Table 3). */
    public static boolean allowedIn(Frame frame, PacketType packetType) {
        return allowedIn(frame.type(), packetType);
    }
}
