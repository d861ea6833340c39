package org.pacelab.quic.h3;

/** The two low bits of a QUIC stream ID, RFC 9000 §2.1. */
final class StreamIds {
    private StreamIds() {
    }

    static boolean isClientInitiated(long id) {
        return (id & 0x1) == 0;
    }

    static boolean isBidirectional(long id) {
        return (id & 0x2) == 0;
    }

    /** A client-initiated bidirectional stream, the only kind that carries requests (RFC 9114 §6.1). */
    static boolean isRequestStream(long id) {
        return (id & 0x3) == 0;
    }
}
