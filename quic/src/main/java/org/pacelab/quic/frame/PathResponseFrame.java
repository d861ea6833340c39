package org.pacelab.quic.frame;

import java.util.Arrays;
import java.util.Objects;
import org.pacelab.quic.wire.Bytes;

/** PATH_RESPONSE (RFC 9000 §19.18) echoing the 8 bytes of a PATH_CHALLENGE. Array not copied. */
public record PathResponseFrame(byte[] data) implements Frame {
    public PathResponseFrame {
        Objects.requireNonNull(data, "data");
        if (data.length != 8) {
            throw new IllegalArgumentException("PATH_RESPONSE data must be 8 bytes, not " + data.length);
        }
    }

    @Override
    public long type() { return FrameType.PATH_RESPONSE; }

    @Override
    public boolean equals(Object o) { return o instanceof PathResponseFrame p && Arrays.equals(p.data, data); }

    @Override
    public int hashCode() { return Arrays.hashCode(data); }

    @Override
    public String toString() { return "PathResponseFrame[data=" + Bytes.hex(data) + "]"; }
}
