package org.pacelab.quic.h3.qpack;

import java.nio.ByteBuffer;

/**
 * Checks the peer's QPACK decoder stream (RFC 9204 §4.4) against an encoder that never uses the dynamic
 * table: Stream Cancellation is accepted (§4.4.2); Section Acknowledgment cannot refer to any section of
 * ours (all have Required Insert Count 0, §4.4.1) and Insert Count Increment cannot acknowledge inserts we
 * never sent (§4.4.3), so both are QPACK_DECODER_STREAM_ERROR. Data may arrive in any pieces.
 */
public final class DecoderStreamReceiver {
    /** Continuation bytes of a 6-bit-prefix integer needed to exceed 62 bits. */
    private static final int MAX_CONTINUATION_BYTES = 9;

    private long offset;
    private int continuationBytes = -1; // -1: at an instruction boundary

    /** Consumes all remaining bytes of {@code data}. */
    public void receive(ByteBuffer data) throws QpackException {
        while (data.hasRemaining()) {
            int b = data.get() & 0xff;
            long at = offset++;
            if (continuationBytes >= 0) {
                if (++continuationBytes > MAX_CONTINUATION_BYTES) {
                    throw new QpackException(QpackError.QPACK_DECODER_STREAM_ERROR, "decoder stream byte " + at
                            + ": Stream Cancellation stream ID is longer than 62 bits");
                }
                if ((b & 0x80) == 0) {
                    continuationBytes = -1;
                }
                continue;
            }
            if ((b & 0x80) != 0) {
                throw new QpackException(QpackError.QPACK_DECODER_STREAM_ERROR, "decoder stream byte " + at
                        + ": Section Acknowledgment, but none of our field sections used the dynamic table"
                        + " (RFC 9204 §4.4.1)");
            }
            if ((b & 0x40) == 0) {
                throw new QpackException(QpackError.QPACK_DECODER_STREAM_ERROR, "decoder stream byte " + at
                        + ": Insert Count Increment, but we never inserted into the dynamic table"
                        + " (RFC 9204 §4.4.3)");
            }
            if ((b & 0x3f) == 0x3f) {
                continuationBytes = 0; // Stream Cancellation whose stream ID continues
            }
        }
    }
}
