package org.pacelab.quic.content;

import java.nio.ByteBuffer;

/** A synthetic body of {@link BytePattern} bytes: any length, no storage. */
public final class PatternBody implements Body {
    private final long length;
    private long position;

    public PatternBody(long length) {
        if (length < 0) {
            throw new IllegalArgumentException("body length must not be negative: " + length);
        }
        this.length = length;
    }

    @Override
    public long length() {
        return length;
    }

    @Override
    public int read(ByteBuffer dst) {
        int n = (int) Math.min(dst.remaining(), length - position);
        BytePattern.fill(position, dst, n);
        position += n;
        return n;
    }

    @Override
    public void close() {
        position = length;
    }
}
