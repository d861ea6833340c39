package org.pacelab.quic.stream;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Arrays;

import org.pacelab.quic.util.RangeSet;

/**
 * Reassembles an incoming byte stream (a QUIC stream or a CRYPTO stream) from frames that may arrive out of
 * order, overlapping or duplicated (RFC 9000 §2.2), and hands out the bytes in order.
 *
 * <p>Bytes are copied once, straight from the frame (a view of the decrypted packet) into fixed-size chunks addressed
 * by stream offset, where they stay until the application reads them; a chunk read to its end is kept for reuse. Bytes
 * that arrive in order only move {@link #contiguousEnd}; bytes beyond a gap are written to their place as well, and
 * their ranges are remembered until the gap closes. Bytes already received in order are not written again (RFC 9000
 * §2.2: data at an offset must not change, and may be discarded when received again). How far beyond the read offset
 * data may arrive is the caller's to bound — flow control for a stream (RFC 9000 §4.1), the CRYPTO buffer limit for
 * a handshake stream (§7.5) — since every chunk between the two may be allocated.
 */
public final class ReceiveBuffer {
    /** Chunk size of a stream's buffer: a few packets' worth, so that a burst of in-order packets fills few chunks. */
    public static final int STREAM_CHUNK = 16 * 1024;
    /** Chunk size of a CRYPTO stream's buffer: a handshake message is a few kB. */
    public static final int CRYPTO_CHUNK = 4 * 1024;

    private final int chunkShift;
    private final int chunkSize;
    /**
     * The chunks from the one holding {@link #readOffset}: the i-th is {@code ring[(head + i) & (ring.length - 1)]}
     * and holds stream offsets {@code [firstChunkOffset + i * chunkSize, + chunkSize)}; null where nothing arrived.
     */
    private byte[][] ring = new byte[4][];
    private int head;
    private long firstChunkOffset;
    /** Chunks read to their end, reused before any new one is allocated (so never more than at the fullest). */
    private final ArrayDeque<byte[]> spare = new ArrayDeque<>();
    /** Ranges received beyond {@link #contiguousEnd}, after a gap; all start after it. */
    private final RangeSet beyondGap = new RangeSet();
    private long readOffset;
    /** End of the bytes present without a gap from {@link #readOffset}. */
    private long contiguousEnd;
    private long highestOffset;

    /** A stream's buffer, in chunks of {@link #STREAM_CHUNK} bytes. */
    public ReceiveBuffer() {
        this(STREAM_CHUNK);
    }

    /** A buffer in chunks of {@code chunkSize} bytes, a power of two. */
    public ReceiveBuffer(int chunkSize) {
        if (chunkSize <= 0 || Integer.bitCount(chunkSize) != 1) {
            throw new IllegalArgumentException("chunk size " + chunkSize + " is not a power of two");
        }
        this.chunkSize = chunkSize;
        this.chunkShift = Integer.numberOfTrailingZeros(chunkSize);
    }

    /** Adds bytes received at {@code offset}; see {@link #insert(long, ByteBuffer, int, int)}. */
    public boolean insert(long offset, byte[] data) {
        return insert(offset, ByteBuffer.wrap(data), 0, data.length);
    }

    /**
     * Adds the {@code length} bytes at index {@code index} of {@code src} (absolute: the buffer's position is not
     * used or moved), received at stream offset {@code offset}. Bytes already received in order are ignored.
     *
     * @return whether more bytes became readable
     */
    public boolean insert(long offset, ByteBuffer src, int index, int length) {
        long end = offset + length;
        highestOffset = Math.max(highestOffset, end);
        if (end <= contiguousEnd) {
            return false;
        }
        long from = Math.max(offset, contiguousEnd);
        copyIn(from, src, index + (int) (from - offset), (int) (end - from));
        if (from > contiguousEnd) {
            beyondGap.add(from, end);
            return false;
        }
        contiguousEnd = end;
        while (!beyondGap.isEmpty() && beyondGap.first() <= contiguousEnd) {
            contiguousEnd = Math.max(contiguousEnd, beyondGap.pollFirst(Long.MAX_VALUE).end());
        }
        return true;
    }

    private void copyIn(long offset, ByteBuffer src, int index, int length) {
        while (length > 0) {
            byte[] chunk = chunkAt(offset);
            int within = (int) (offset & (chunkSize - 1));
            int n = Math.min(length, chunkSize - within);
            src.get(index, chunk, within, n);
            offset += n;
            index += n;
            length -= n;
        }
    }

    /** The chunk holding {@code offset} (at or after the read offset's chunk), allocated or reused if absent. */
    private byte[] chunkAt(long offset) {
        long i = (offset - firstChunkOffset) >>> chunkShift;
        if (i >= ring.length) {
            grow(i + 1);
        }
        int slot = (head + (int) i) & (ring.length - 1);
        byte[] chunk = ring[slot];
        if (chunk == null) {
            chunk = spare.isEmpty() ? new byte[chunkSize] : spare.pop();
            ring[slot] = chunk;
        }
        return chunk;
    }

    private void grow(long chunks) {
        if (chunks > 1 << 24) {
            throw new IllegalArgumentException("data at " + chunks + " chunks beyond the read offset; the caller bounds it");
        }
        byte[][] bigger = new byte[Integer.highestOneBit((int) chunks - 1) << 1][];
        for (int i = 0; i < ring.length; i++) {
            bigger[i] = ring[(head + i) & (ring.length - 1)];
        }
        ring = bigger;
        head = 0;
    }

    /** Bytes readable in order now. */
    public long readable() {
        return contiguousEnd - readOffset;
    }

    /** Copies in-order bytes into {@code dst}; returns the count (0 if none). */
    public int read(ByteBuffer dst) {
        int total = 0;
        while (dst.hasRemaining() && readOffset < contiguousEnd) {
            byte[] chunk = ring[head];
            int within = (int) (readOffset & (chunkSize - 1));
            int n = (int) Math.min(Math.min(dst.remaining(), contiguousEnd - readOffset), chunkSize - within);
            dst.put(chunk, within, n);
            readOffset += n;
            total += n;
            if (within + n == chunkSize) {
                releaseHead();
            }
        }
        return total;
    }

    /** The chunk at the head was read to its end: keep it for reuse, and let the next one lead. */
    private void releaseHead() {
        byte[] chunk = ring[head];
        if (chunk != null) {
            spare.push(chunk);
            ring[head] = null;
        }
        head = (head + 1) & (ring.length - 1);
        firstChunkOffset += chunkSize;
    }

    /** Offset of the next byte to read (bytes consumed so far). */
    public long readOffset() { return readOffset; }

    /** One past the highest offset received. */
    public long highestOffset() { return highestOffset; }

    /** Chunks holding received bytes not yet read (for tests: what a stream's buffer keeps). */
    int chunksHeld() {
        int n = 0;
        for (byte[] chunk : ring) {
            n += chunk != null ? 1 : 0;
        }
        return n;
    }

    /** Drops everything not yet read (after RESET_STREAM or STOP_SENDING), and the chunks kept for reuse. */
    public void discard() {
        Arrays.fill(ring, null);
        spare.clear();
        beyondGap.clear();
        contiguousEnd = readOffset;
    }
}
