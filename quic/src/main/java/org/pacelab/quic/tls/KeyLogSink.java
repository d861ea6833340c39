package org.pacelab.quic.tls;

/**
 * Receives TLS secrets in NSS key log terms (label, client random, secret) so the runtime can write an
 * SSLKEYLOGFILE that Wireshark and pacelab's analyzer use to decrypt captures.
 */
@FunctionalInterface
public interface KeyLogSink {
    KeyLogSink NONE = (label, clientRandom, secret) -> {};

    void log(String label, byte[] clientRandom, byte[] secret);

    /** One NSS key log line (without the newline). */
    static String line(String label, byte[] clientRandom, byte[] secret) {
        return label + ' ' + java.util.HexFormat.of().formatHex(clientRandom) + ' ' + java.util.HexFormat.of().formatHex(secret);
    }
}
