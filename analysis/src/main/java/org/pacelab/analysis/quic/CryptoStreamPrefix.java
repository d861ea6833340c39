package org.pacelab.analysis.quic;

/**
 * Reassembles the first bytes of a CRYPTO stream (RFC 9000 §19.6) from frames that may arrive out of order,
 * enough to read the TLS ClientHello's random and the ServerHello's cipher suite.
 */
final class CryptoStreamPrefix {
    private final byte[] bytes;
    private final boolean[] present;
    private int contiguous;

    CryptoStreamPrefix(int capacity) {
        bytes = new byte[capacity];
        present = new boolean[capacity];
    }

    void add(long offset, byte[] data) {
        for (int i = 0; i < data.length; i++) {
            long at = offset + i;
            if (at >= 0 && at < bytes.length) {
                bytes[(int) at] = data[i];
                present[(int) at] = true;
            }
        }
        while (contiguous < bytes.length && present[contiguous]) {
            contiguous++;
        }
    }

    /** Bytes available from offset 0 without a hole. */
    int contiguous() {
        return contiguous;
    }

    byte[] bytes() {
        return bytes;
    }
}
