package org.pacelab.quic.content;

import java.nio.ByteBuffer;

/** A body held in memory, e.g. the short explanation sent with an error status. */
public final class ByteArrayBody implements Body {
    private final byte[] bytes;
    private int position;

    public ByteArrayBody(byte[] bytes) {
        this.bytes = bytes.clone();
    }

    @Override
    public long length() {
        return bytes.length;
    }

    @Override
    public int read(ByteBuffer dst) {
        int n = Math.min(dst.remaining(), bytes.length - position);
        dst.put(bytes, position, n);
        position += n;
        return n;
    }

    @Override
    public void close() {
        position = bytes.length;
    }
}
