package org.pacelab.quic.frame;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;
import org.pacelab.quic.wire.Bytes;
import org.pacelab.quic.wire.VarInt;

/**
 * STREAM (RFC 9000 §19.8). {@link #type()} is the family base 0x08; the OFF/LEN bits are encoding
 * choices and FIN is the {@code fin} component. The array is not copied.
 *
 * <p>For the send path, {@link #encodeHeader} writes only the frame header so that the connection can
 * copy the payload straight from its stream buffer into the packet after it.
 */
public record StreamFrame(long streamId, long offset, byte[] data, boolean fin) implements Frame {
    public StreamFrame {
        Objects.requireNonNull(data, "data");
    }

    @Override
    public long type() { return FrameType.STREAM; }

    /**
     * Writes a STREAM frame header with the LEN bit set (and the OFF bit when {@code offset > 0}); the
     * caller writes exactly {@code length} payload bytes right after it.
     *
     * @return the number of header bytes written, equal to {@link #headerLength}
     */
    public static int encodeHeader(ByteBuffer out, long streamId, long offset, int length, boolean fin) {
        return encodeHeader(out, streamId, offset, length, fin, true);
    }

    /**
     * Writes a STREAM frame header; with {@code withLength == false} the LEN bit is clear and the data
     * runs to the end of the packet, so the frame must be the packet's last one (RFC 9000 §19.8).
     *
     * @return the number of header bytes written
     */
    public static int encodeHeader(ByteBuffer out, long streamId, long offset, int length, boolean fin, boolean withLength) {
        if (length < 0 || offset + length > VarInt.MAX || offset < 0) {
            throw new IllegalArgumentException("stream offset " + offset + " + length " + length + " exceeds 2^62-1 or is negative");
        }
        int start = out.position();
        int type = (int) FrameType.STREAM;
        if (offset != 0) {
            type |= FrameType.STREAM_OFF_BIT;
        }
        if (withLength) {
            type |= FrameType.STREAM_LEN_BIT;
        }
        if (fin) {
            type |= FrameType.STREAM_FIN_BIT;
        }
        out.put((byte) type);
        VarInt.write(out, streamId);
        if (offset != 0) {
            VarInt.write(out, offset);
        }
        if (withLength) {
            VarInt.write(out, length);
        }
        return out.position() - start;
    }

    /** The size of the header {@link #encodeHeader(ByteBuffer, long, long, int, boolean)} writes. */
    public static int headerLength(long streamId, long offset, int length) {
        return 1 + VarInt.size(streamId) + (offset != 0 ? VarInt.size(offset) : 0) + VarInt.size(length);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StreamFrame s && s.streamId == streamId && s.offset == offset && s.fin == fin
                && Arrays.equals(s.data, data);
    }

    @Override
    public int hashCode() {
        return Objects.hash(streamId, offset, fin, Arrays.hashCode(data));
    }

    @Override
    public String toString() {
        return "StreamFrame[id=" + streamId + ", offset=" + offset + ", length=" + data.length + ", fin=" + fin
                + ", data=" + Bytes.shortHex(data) + "]";
    }
}
