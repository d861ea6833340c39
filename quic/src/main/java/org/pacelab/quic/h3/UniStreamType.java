package org.pacelab.quic.h3;

/** Unidirectional stream types, RFC 9114 §6.2 and RFC 9204 §4.2. */
public final class UniStreamType {
    public static final long CONTROL = 0x00;
    public static final long PUSH = 0x01;
    public static final long QPACK_ENCODER = 0x02;
    public static final long QPACK_DECODER = 0x03;

    private UniStreamType() {
    }

    public static String name(long type) {
        if (type == CONTROL) {
            return "control";
        } else if (type == PUSH) {
            return "push";
        } else if (type == QPACK_ENCODER) {
            return "QPACK encoder";
        } else if (type == QPACK_DECODER) {
            return "QPACK decoder";
        }
        return "type 0x" + Long.toHexString(type);
    }
}
