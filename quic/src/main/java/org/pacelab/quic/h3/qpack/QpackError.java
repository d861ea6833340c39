package org.pacelab.quic.h3.qpack;

/** QPACK error codes, RFC 9204 §6 (registered in the HTTP/3 error code space). */
public enum QpackError {
    /** The decoder failed to interpret an encoded field section. */
    QPACK_DECOMPRESSION_FAILED(0x200),
    /** The decoder failed to interpret an encoder instruction received on the encoder stream. */
    QPACK_ENCODER_STREAM_ERROR(0x201),
    /** The encoder failed to interpret a decoder instruction received on the decoder stream. */
    QPACK_DECODER_STREAM_ERROR(0x202);

    public final long code;

    QpackError(long code) {
        this.code = code;
    }

    /** The QPACK error with this code, or null when the code is not a QPACK error. */
    public static QpackError of(long code) {
        for (QpackError e : values()) {
            if (e.code == code) {
                return e;
            }
        }
        return null;
    }
}
