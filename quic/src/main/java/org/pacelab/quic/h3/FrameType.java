package org.pacelab.quic.h3;

/** HTTP/3 frame types, RFC 9114 §7.2 and §11.2.1. */
public final class FrameType {
    public static final long DATA = 0x00;
    public static final long HEADERS = 0x01;
    public static final long CANCEL_PUSH = 0x03;
    public static final long SETTINGS = 0x04;
    public static final long PUSH_PROMISE = 0x05;
    public static final long GOAWAY = 0x07;
    public static final long MAX_PUSH_ID = 0x0d;

    private FrameType() {
    }

    /**
     * HTTP/2 frame types without an HTTP/3 counterpart (PRIORITY, PING, WINDOW_UPDATE, CONTINUATION):
     * receiving one is a connection error of type H3_FRAME_UNEXPECTED (§7.2.8).
     */
    public static boolean isHttp2Only(long type) {
        return type == 0x02 || type == 0x06 || type == 0x08 || type == 0x09;
    }

    /** A type this implementation interprets (all others are skipped, §9). */
    public static boolean isKnown(long type) {
        return type == DATA || type == HEADERS || type == CANCEL_PUSH || type == SETTINGS
                || type == PUSH_PROMISE || type == GOAWAY || type == MAX_PUSH_ID;
    }

    public static String name(long type) {
        if (type == DATA) {
            return "DATA";
        } else if (type == HEADERS) {
            return "HEADERS";
        } else if (type == CANCEL_PUSH) {
            return "CANCEL_PUSH";
        } else if (type == SETTINGS) {
            return "SETTINGS";
        } else if (type == PUSH_PROMISE) {
            return "PUSH_PROMISE";
        } else if (type == GOAWAY) {
            return "GOAWAY";
        } else if (type == MAX_PUSH_ID) {
            return "MAX_PUSH_ID";
        } else if (isHttp2Only(type)) {
            return "HTTP/2 frame type 0x" + Long.toHexString(type);
        }
        return "frame type 0x" + Long.toHexString(type);
    }
}
