package org.pacelab.quic.h3.qpack;

import java.nio.ByteBuffer;

/**
 * Checks the peer's QPACK encoder stream (RFC 9204 §4.3) against our advertised dynamic table capacity of
 * 0: the only instruction that can be valid is Set Dynamic Table Capacity with capacity 0; a larger
 * capacity, any insert and any duplicate are QPACK_ENCODER_STREAM_ERROR (§3.2.3, §4.3.1 to §4.3.4). Data may
 * arrive in any pieces.
 */
public final class EncoderStreamReceiver {
    private long offset;

    /** Consumes all remaining bytes of {@code data}. */
    public void receive(ByteBuffer data) throws QpackException {
        while (data.hasRemaining()) {
            int b = data.get() & 0xff;
            long at = offset++;
            if ((b & 0x80) != 0) {
                throw refused(at, "Insert with Name Reference (§4.3.2)");
            }
            if ((b & 0x40) != 0) {
                throw refused(at, "Insert with Literal Name (§4.3.3)");
            }
            if ((b & 0x20) == 0) {
                throw refused(at, "Duplicate (§4.3.4)");
            }
            if ((b & 0x1f) != 0) {
                // The 5-bit prefix is non-zero, so the capacity is at least 1 whatever follows.
                throw new QpackException(QpackError.QPACK_ENCODER_STREAM_ERROR, "encoder stream byte " + at
                        + ": Set Dynamic Table Capacity above our maximum of 0 (RFC 9204 §4.3.1)");
            }
        }
    }

    private static QpackException refused(long at, String instruction) {
        return new QpackException(QpackError.QPACK_ENCODER_STREAM_ERROR, "encoder stream byte " + at + ": "
                + instruction + " needs a dynamic table, but we advertised SETTINGS_QPACK_MAX_TABLE_CAPACITY 0");
    }
}
