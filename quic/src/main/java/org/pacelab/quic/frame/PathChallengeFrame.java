package org.pacelab.quic.frame;

import java.util.Arrays;
import java.util.Objects;
import org.pacelab.quic.wire.Bytes;

/** PATH_CHALLENGE (RFC 9000 §19.17) with its 8 bytes of data. Array not copied. */
public record PathChallengeFrame(byte[] data) implements Frame {
    public PathChallengeFrame {
        Objects.requireNonNull(data, "data");
        if (data.length != 8) {
            throw new IllegalArgumentException("PATH_CHALLENGE data must be 8 bytes, not " + data.length);
        }
    }

    @Override
    public long type() { return FrameType.PATH_CHALLENGE; }

    @Override
    public boolean equals(Object o) { return o instanceof PathChallengeFrame p && Arrays.equals(p.data, data); }

    @Override
    public int hashCode() { return Arrays.hashCode(data); }

    @Override
    public String toString() { return "PathChallengeFrame[data=" + Bytes.hex(data) + "]"; }
}
