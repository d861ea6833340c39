package org.pacelab.quic.packet;

import java.nio.ByteBuffer;
import java.util.random.RandomGenerator;
import org.pacelab.quic.wire.Bytes;

/** Stateless Reset (RFC 9000 §10.3). */
public final class StatelessReset {
    /** Length of a stateless reset token. */
    public static final int TOKEN_LENGTH = 16;
    /**
     * The smallest Stateless Reset: 2 fixed bits and at least 38 unpredictable bits (5 bytes) followed
     * by the 16-byte token (RFC 9000 §10.3, Figure 10).
     */
    public static final int MIN_LENGTH = 21;

    private StatelessReset() {
    }

    /**
     * Whether the last 16 bytes of a datagram equal {@code token}, compared in constant time
     * (RFC 9000 §10.3.1). Datagrams shorter than 21 bytes are never resets.
     */
    public static boolean looksLikeReset(byte[] datagram, byte[] token) {
        if (datagram.length < MIN_LENGTH || token.length != TOKEN_LENGTH) {
            return false;
        }
        return Bytes.constantTimeEquals(datagram, datagram.length - TOKEN_LENGTH, token, 0, TOKEN_LENGTH);
    }

    /** As {@link #looksLikeReset(byte[], byte[])} for the datagram from the buffer's position to its limit. */
    public static boolean looksLikeReset(ByteBuffer datagram, byte[] token) {
        int length = datagram.remaining();
        if (length < MIN_LENGTH || token.length != TOKEN_LENGTH) {
            return false;
        }
        int tail = datagram.limit() - TOKEN_LENGTH;
        int diff = 0;
        for (int i = 0; i < TOKEN_LENGTH; i++) {
            diff |= datagram.get(tail + i) ^ token[i];
        }
        return diff == 0;
    }

    /**
     * Builds a Stateless Reset of {@code length} bytes: first byte 0b01xxxxxx (short header form, fixed
     * bit set), unpredictable bits from {@code rnd}, then the token (RFC 9000 §10.3). Callers keep it
     * smaller than the packet that triggered it (§10.3.3).
     */
    public static byte[] build(int length, byte[] token, RandomGenerator rnd) {
        if (length < MIN_LENGTH) {
            throw new IllegalArgumentException("a Stateless Reset is at least " + MIN_LENGTH + " bytes, not " + length);
        }
        if (token.length != TOKEN_LENGTH) {
            throw new IllegalArgumentException("a stateless reset token is 16 bytes, not " + token.length);
        }
        byte[] packet = new byte[length];
        rnd.nextBytes(packet);
        packet[0] = (byte) (0x40 | (packet[0] & 0x3f));
        System.arraycopy(token, 0, packet, length - TOKEN_LENGTH, TOKEN_LENGTH);
        return packet;
    }
}
