package org.pacelab.io.app;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import org.pacelab.quic.content.Body;

/** A file served as a body: its length when opened, read sequentially into the caller's (direct) buffers. */
final class FileBody implements Body {
    private final Path path;
    private final FileChannel channel;
    private final long length;
    private long position;

    FileBody(Path path, FileChannel channel, long length) {
        this.path = path;
        this.channel = channel;
        this.length = length;
    }

    @Override
    public long length() {
        return length;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        int room = (int) Math.min(dst.remaining(), length - position);
        if (room == 0) {
            return 0;
        }
        int limit = dst.limit();
        dst.limit(dst.position() + room);
        try {
            int n = channel.read(dst, position);
            if (n < 0) {
                throw new IOException(path + " ended at byte " + position + " but was " + length
                        + " bytes long when opened; it was truncated while being served");
            }
            position += n;
            return n;
        } finally {
            dst.limit(limit);
        }
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException e) {
            // A read-only channel: nothing written can be lost by a failed close.
        }
    }
}
