package org.pacelab.quic.frame;

/** Frame type values of QUIC v1, RFC 9000 §19 and §12.4 Table 3. */
public final class FrameType {
    public static final long PADDING = 0x00;
    public static final long PING = 0x01;
    public static final long ACK = 0x02;
    public static final long ACK_ECN = 0x03;
    public static final long RESET_STREAM = 0x04;
    public static final long STOP_SENDING = 0x05;
    public static final long CRYPTO = 0x06;
    public static final long NEW_TOKEN = 0x07;
    /** STREAM frames are 0x08..0x0f: base | OFF (0x04) | LEN (0x02) | FIN (0x01), RFC 9000 §19.8. */
    public static final long STREAM = 0x08;
    public static final int STREAM_OFF_BIT = 0x04;
    public static final int STREAM_LEN_BIT = 0x02;
    public static final int STREAM_FIN_BIT = 0x01;
    public static final long MAX_DATA = 0x10;
    public static final long MAX_STREAM_DATA = 0x11;
    public static final long MAX_STREAMS_BIDI = 0x12;
    public static final long MAX_STREAMS_UNI = 0x13;
    public static final long DATA_BLOCKED = 0x14;
    public static final long STREAM_DATA_BLOCKED = 0x15;
    public static final long STREAMS_BLOCKED_BIDI = 0x16;
    public static final long STREAMS_BLOCKED_UNI = 0x17;
    public static final long NEW_CONNECTION_ID = 0x18;
    public static final long RETIRE_CONNECTION_ID = 0x19;
    public static final long PATH_CHALLENGE = 0x1a;
    public static final long PATH_RESPONSE = 0x1b;
    public static final long CONNECTION_CLOSE = 0x1c;
    public static final long CONNECTION_CLOSE_APP = 0x1d;
    public static final long HANDSHAKE_DONE = 0x1e;
    /** draft-ietf-quic-ack-frequency §5 (the extension's frames are sent only to peers that advertise min_ack_delay). */
    public static final long IMMEDIATE_ACK = 0x1f;
    /** draft-ietf-quic-ack-frequency §4. */
    public static final long ACK_FREQUENCY = 0xaf;

    private FrameType() {
    }

    /** Whether {@code type} is a frame type of the ACK frequency extension (draft-ietf-quic-ack-frequency). */
    public static boolean isAckFrequencyExtension(long type) {
        return type == IMMEDIATE_ACK || type == ACK_FREQUENCY;
    }

    /** Whether {@code type} is a v1 frame type (RFC 9000 §19). */
    public static boolean isKnown(long type) {
        return type >= 0 && type <= HANDSHAKE_DONE;
    }

    /** The RFC 9000 name of a frame type (qlog uses the lower-case form), or hex for unknown types. */
    public static String name(long type) {
        if (type >= 0x08 && type <= 0x0f) {
            return "STREAM";
        }
        return switch ((int) Math.min(type, Integer.MAX_VALUE)) {
            case 0x00 -> "PADDING";
            case 0x01 -> "PING";
            case 0x02, 0x03 -> "ACK";
            case 0x04 -> "RESET_STREAM";
            case 0x05 -> "STOP_SENDING";
            case 0x06 -> "CRYPTO";
            case 0x07 -> "NEW_TOKEN";
            case 0x10 -> "MAX_DATA";
            case 0x11 -> "MAX_STREAM_DATA";
            case 0x12, 0x13 -> "MAX_STREAMS";
            case 0x14 -> "DATA_BLOCKED";
            case 0x15 -> "STREAM_DATA_BLOCKED";
            case 0x16, 0x17 -> "STREAMS_BLOCKED";
            case 0x18 -> "NEW_CONNECTION_ID";
            case 0x19 -> "RETIRE_CONNECTION_ID";
            case 0x1a -> "PATH_CHALLENGE";
            case 0x1b -> "PATH_RESPONSE";
            case 0x1c, 0x1d -> "CONNECTION_CLOSE";
            case 0x1e -> "HANDSHAKE_DONE";
            case 0x1f -> "IMMEDIATE_ACK";
            case 0xaf -> "ACK_FREQUENCY";
            default -> "0x" + Long.toHexString(type);
        };
    }
}
