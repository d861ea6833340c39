package org.pacelab.quic.tls;

import org.pacelab.quic.packet.EncryptionLevel;

/**
 * Which TLS handshake messages an endpoint may receive at which encryption level (RFC 9001 §4, Table 1, with the
 * direction of each message from RFC 8446 §4). A message at another level is an unexpected_message alert
 * (RFC 9001 §4.8, crypto error 0x010a); the one exception is EndOfEarlyData, which a QUIC client never sends and a
 * server treats as a PROTOCOL_VIOLATION (RFC 9001 §8.3).
 */
final class HandshakeMessageLevels {
    static final int CLIENT_HELLO = 1;
    static final int SERVER_HELLO = 2;
    static final int NEW_SESSION_TICKET = 4;
    static final int END_OF_EARLY_DATA = 5;
    static final int ENCRYPTED_EXTENSIONS = 8;
    static final int CERTIFICATE = 11;
    static final int CERTIFICATE_REQUEST = 13;
    static final int CERTIFICATE_VERIFY = 15;
    static final int FINISHED = 20;

    private HandshakeMessageLevels() { }

    /** Whether a message of this type (the first byte of a handshake message) may arrive at this level. */
    static boolean allowed(int type, EncryptionLevel level, boolean receiverIsClient) {
        return switch (level) {
            case INITIAL -> type == (receiverIsClient ? SERVER_HELLO : CLIENT_HELLO);
            case HANDSHAKE -> receiverIsClient
                    ? type == ENCRYPTED_EXTENSIONS || type == CERTIFICATE_REQUEST || type == CERTIFICATE
                        || type == CERTIFICATE_VERIFY || type == FINISHED
                    : type == CERTIFICATE || type == CERTIFICATE_VERIFY || type == FINISHED;
            case ONE_RTT -> receiverIsClient && type == NEW_SESSION_TICKET;
            case ZERO_RTT -> false;
        };
    }
}
