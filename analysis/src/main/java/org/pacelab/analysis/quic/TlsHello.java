package org.pacelab.analysis.quic;

import java.util.Arrays;

/** Reads the two fields pacelab needs from the start of a TLS 1.3 handshake stream (RFC 8446 §4.1.2–4.1.3). */
final class TlsHello {
    static final int CLIENT_HELLO = 1;
    static final int SERVER_HELLO = 2;

    private TlsHello() {}

    /**
     * The ClientHello's 32-byte random: handshake type (1), length (3), legacy_version (2), random (32).
     * Returns null when the stream does not start with a ClientHello or is too short.
     */
    static byte[] clientRandom(byte[] stream, int available) {
        if (available < 38 || (stream[0] & 0xff) != CLIENT_HELLO) {
            return null;
        }
        return Arrays.copyOfRange(stream, 6, 38);
    }

    /**
     * The ServerHello's cipher suite code: after type (1), length (3), legacy_version (2), random (32),
     * legacy_session_id_echo (1-byte length + bytes). Returns -1 when not available.
     */
    static int serverCipherSuite(byte[] stream, int available) {
        if (available < 39 || (stream[0] & 0xff) != SERVER_HELLO) {
            return -1;
        }
        int sessionIdLength = stream[38] & 0xff;
        int at = 39 + sessionIdLength;
        if (available < at + 2) {
            return -1;
        }
        return (stream[at] & 0xff) << 8 | (stream[at + 1] & 0xff);
    }
}
