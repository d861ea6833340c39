package org.pacelab.quic.frame;

import java.util.Arrays;
import java.util.Objects;
import org.pacelab.quic.wire.Bytes;

/** CRYPTO (RFC 9000 §19.6): handshake data at {@code offset} of the level's crypto stream. Array not copied. */
public record CryptoFrame(long offset, byte[] data) implements Frame {
    public CryptoFrame {
        Objects.requireNonNull(data, "data");
    }

    @Override
    public long type() { return FrameType.CRYPTO; }

    @Override
    public boolean equals(Object o) {
        return o instanceof CryptoFrame c && c.offset == offset && Arrays.equals(c.data, data);
    }

    @Override
    public int hashCode() { return 31 * Long.hashCode(offset) + Arrays.hashCode(data); }

    @Override
    public String toString() { return "CryptoFrame[offset=" + offset + ", length=" + data.length + ", data=" + Bytes.shortHex(data) + "]"; }
}
