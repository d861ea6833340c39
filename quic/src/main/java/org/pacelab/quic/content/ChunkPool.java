package org.pacelab.quic.content;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;

/**
 * Reusable direct buffers for streaming bodies: one per stream that is sending, returned when it is done,
 * so bodies of any size move without allocating per chunk. Direct, so file reads fill them without the
 * JDK's intermediate copy. Used on one connection thread.
 */
public final class ChunkPool {
    private final int chunkSize;
    private final int maxIdle;
    private final ArrayDeque<ByteBuffer> idle = new ArrayDeque<>();

    /**
     * @param chunkSize bytes per buffer
     * @param maxIdle   how many returned buffers are kept for reuse
     */
    public ChunkPool(int chunkSize, int maxIdle) {
        this.chunkSize = chunkSize;
        this.maxIdle = maxIdle;
    }

    public ByteBuffer acquire() {
        ByteBuffer b = idle.poll();
        return b != null ? b.clear() : ByteBuffer.allocateDirect(chunkSize);
    }

    public void release(ByteBuffer b) {
        if (b.capacity() == chunkSize && b.isDirect() && idle.size() < maxIdle) {
            idle.push(b);
        }
    }
}
