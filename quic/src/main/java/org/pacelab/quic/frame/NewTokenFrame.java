package org.pacelab.quic.frame;

import java.util.Arrays;
import java.util.Objects;
import org.pacelab.quic.wire.Bytes;

/** NEW_TOKEN (RFC 9000 §19.7); the token is never empty. Array not copied. */
public record NewTokenFrame(byte[] token) implements Frame {
    public NewTokenFrame {
        Objects.requireNonNull(token, "token");
        if (token.length == 0) {
            throw new IllegalArgumentException("NEW_TOKEN token must not be empty (RFC 9000 §19.7)");
        }
    }

    @Override
    public long type() { return FrameType.NEW_TOKEN; }

    @Override
    public boolean equals(Object o) { return o instanceof NewTokenFrame t && Arrays.equals(t.token, token); }

    @Override
    public int hashCode() { return Arrays.hashCode(token); }

    @Override
    public String toString() { return "NewTokenFrame[token=" + Bytes.shortHex(token) + "]"; }
}
