package org.pacelab.quic.frame;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.pacelab.quic.QuicException;
import org.pacelab.quic.TransportError;
import org.pacelab.quic.wire.VarInt;

/**
 * Encodes and decodes QUIC v1 frames (RFC 9000 §19). Decoding never throws anything but
 * {@link QuicException}: FRAME_ENCODING_ERROR for truncation, bad lengths, unknown frame types
 * (§12.4) and values outside the §19 rules, PROTOCOL_VIOLATION for a known frame type in a
 * longer-than-necessary encoding (§12.4). The exception names the offending frame type.
 */
public final class FrameCodec {
    /** The largest stream count MAX_STREAMS and STREAMS_BLOCKED may carry, 2^60 (RFC 9000 §19.11, §19.14). */
    public static final long MAX_STREAM_COUNT = 1L << 60;

    private static final byte[] ZEROS = new byte[2048];

    private FrameCodec() {
    }

    /**
     * Decodes exactly one frame at the buffer's position and advances past it. A run of PADDING bytes
     * becomes one {@link PaddingFrame}. A STREAM frame without the LEN bit runs to the buffer's limit.
     * Byte arrays in the result are fresh copies.
     */
    public static Frame decode(ByteBuffer b) throws QuicException {
        int start = b.position();
        int limit = b.limit();
        if (start >= limit) {
            throw error(0, start, "no frame: the packet payload ends here");
        }
        int first = b.get(start) & 0xff;
        if (first == 0) {
            int end = start + 1;
            while (end < limit && b.get(end) == 0) {
                end++;
            }
            b.position(end);
            return new PaddingFrame(end - start);
        }
        long type;
        if (first < 0x40) {
            type = first;
            b.position(start + 1);
        } else {
            type = VarInt.read(b, 0);
            if (FrameType.isKnown(type) || FrameType.isAckFrequencyExtension(type) && b.position() - start > VarInt.size(type)) {
                throw new QuicException(TransportError.PROTOCOL_VIOLATION, type, "frame type " + FrameType.name(type)
                        + " at byte offset " + start + " uses a " + (b.position() - start)
                        + "-byte encoding; RFC 9000 §12.4 requires the shortest (1 byte)");
            }
        }
        return switch ((int) Math.min(type, Integer.MAX_VALUE)) {
            case 0x01 -> PingFrame.INSTANCE;
            case 0x02, 0x03 -> decodeAck(b, type, start);
            case 0x04 -> new ResetStreamFrame(VarInt.read(b, type), VarInt.read(b, type), VarInt.read(b, type));
            case 0x05 -> new StopSendingFrame(VarInt.read(b, type), VarInt.read(b, type));
            case 0x06 -> decodeCrypto(b, type, start);
            case 0x07 -> decodeNewToken(b, type, start);
            case 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f -> decodeStream(b, type, start);
            case 0x10 -> new MaxDataFrame(VarInt.read(b, type));
            case 0x11 -> new MaxStreamDataFrame(VarInt.read(b, type), VarInt.read(b, type));
            case 0x12, 0x13 -> new MaxStreamsFrame(type == FrameType.MAX_STREAMS_BIDI, streamCount(b, type, start));
            case 0x14 -> new DataBlockedFrame(VarInt.read(b, type));
            case 0x15 -> new StreamDataBlockedFrame(VarInt.read(b, type), VarInt.read(b, type));
            case 0x16, 0x17 -> new StreamsBlockedFrame(type == FrameType.STREAMS_BLOCKED_BIDI, streamCount(b, type, start));
            case 0x18 -> decodeNewConnectionId(b, type, start);
            case 0x19 -> new RetireConnectionIdFrame(VarInt.read(b, type));
            case 0x1a -> new PathChallengeFrame(bytes(b, 8, type, start, "PATH_CHALLENGE data"));
            case 0x1b -> new PathResponseFrame(bytes(b, 8, type, start, "PATH_RESPONSE data"));
            case 0x1c, 0x1d -> decodeConnectionClose(b, type, start);
            case 0x1e -> HandshakeDoneFrame.INSTANCE;
            case 0x1f -> ImmediateAckFrame.INSTANCE;
            case 0xaf -> new AckFrequencyFrame(VarInt.read(b, type), VarInt.read(b, type), VarInt.read(b, type),
                    VarInt.read(b, type));
            default -> throw error(type, start, "unknown frame type 0x" + Long.toHexString(type)
                    + "; known are the QUIC v1 frame types 0x00..0x1e (RFC 9000 §12.4) and ACK frequency's 0x1f and 0xaf");
        };
    }

    /** Decodes all frames from the position to the limit. */
    public static List<Frame> decodeAll(ByteBuffer payload) throws QuicException {
        List<Frame> frames = new ArrayList<>();
        while (payload.hasRemaining()) {
            frames.add(decode(payload));
        }
        return frames;
    }

    private static AckFrame decodeAck(ByteBuffer b, long type, int start) throws QuicException {
        long largest = VarInt.read(b, type);
        long delay = VarInt.read(b, type);
        long additional = VarInt.read(b, type);
        long firstRange = VarInt.read(b, type);
        if (firstRange > largest) {
            throw error(type, start, "ACK first range " + firstRange + " exceeds largest acknowledged " + largest
                    + " (RFC 9000 §19.3.1)");
        }
        if (additional > b.remaining() / 2) {
            throw error(type, start, "ACK announces " + additional + " more ranges but only " + b.remaining()
                    + " bytes remain (each range needs at least 2)");
        }
        int n = (int) additional + 1;
        long[] ranges = new long[2 * n];
        ranges[0] = largest;
        ranges[1] = largest - firstRange;
        for (int i = 1; i < n; i++) {
            long gap = VarInt.read(b, type);
            long len = VarInt.read(b, type);
            long hi = ranges[2 * i - 1] - gap - 2;
            long lo = hi - len;
            if (hi < 0 || lo < 0) {
                throw error(type, start, "ACK range " + i + " (gap " + gap + ", length " + len
                        + ") goes below packet number 0 (RFC 9000 §19.3.1)");
            }
            ranges[2 * i] = hi;
            ranges[2 * i + 1] = lo;
        }
        EcnCounts ecn = null;
        if (type == FrameType.ACK_ECN) {
            ecn = new EcnCounts(VarInt.read(b, type), VarInt.read(b, type), VarInt.read(b, type));
        }
        return new AckFrame(largest, delay, ranges, ecn);
    }

    private static CryptoFrame decodeCrypto(ByteBuffer b, long type, int start) throws QuicException {
        long offset = VarInt.read(b, type);
        int length = length(b, type, start, "CRYPTO length");
        if (offset + length > VarInt.MAX) {
            throw error(type, start, "CRYPTO offset " + offset + " + length " + length + " exceeds 2^62-1 (RFC 9000 §19.6)");
        }
        return new CryptoFrame(offset, bytes(b, length, type, start, "CRYPTO data"));
    }

    private static NewTokenFrame decodeNewToken(ByteBuffer b, long type, int start) throws QuicException {
        int length = length(b, type, start, "NEW_TOKEN token length");
        if (length == 0) {
            throw error(type, start, "NEW_TOKEN with an empty token (RFC 9000 §19.7)");
        }
        return new NewTokenFrame(bytes(b, length, type, start, "NEW_TOKEN token"));
    }

    private static StreamFrame decodeStream(ByteBuffer b, long type, int start) throws QuicException {
        StreamFrameHeader h = decodeStreamFields(b, type, start);
        return h.withData(bytes(b, h.length(), type, start, "STREAM data"));
    }

    /**
     * Whether the frame at the buffer's position is a STREAM frame in the one-byte type encoding (0x08..0x0f, RFC 9000
     * §19.8), which {@link #decodeStreamHeader} decodes. Any other encoding of the type is {@link #decode}'s to judge.
     */
    public static boolean atStreamFrame(ByteBuffer b) {
        return b.hasRemaining() && (b.get(b.position()) & 0xf8) == FrameType.STREAM;
    }

    /**
     * Decodes the header of the STREAM frame at the buffer's position (see {@link #atStreamFrame}) and leaves the position
     * at its data, of which the header gives the length (all of it remains in the buffer); the caller moves past it. The
     * checks are {@link #decode}'s: FRAME_ENCODING_ERROR for truncation and an end beyond 2^62-1 (RFC 9000 §19.8).
     */
    public static StreamFrameHeader decodeStreamHeader(ByteBuffer b) throws QuicException {
        int start = b.position();
        long type = b.get() & 0xff;
        return decodeStreamFields(b, type, start);
    }

    private static StreamFrameHeader decodeStreamFields(ByteBuffer b, long type, int start) throws QuicException {
        int bits = (int) type;
        long streamId = VarInt.read(b, type);
        long offset = (bits & FrameType.STREAM_OFF_BIT) != 0 ? VarInt.read(b, type) : 0;
        int length = (bits & FrameType.STREAM_LEN_BIT) != 0 ? length(b, type, start, "STREAM length") : b.remaining();
        if (offset + length > VarInt.MAX) {
            throw error(type, start, "STREAM offset " + offset + " + length " + length + " exceeds 2^62-1 (RFC 9000 §19.8)");
        }
        return new StreamFrameHeader(streamId, offset, length, (bits & FrameType.STREAM_FIN_BIT) != 0);
    }

    private static long streamCount(ByteBuffer b, long type, int start) throws QuicException {
        long count = VarInt.read(b, type);
        if (count > MAX_STREAM_COUNT) {
            throw error(type, start, FrameType.name(type) + " stream count " + count + " exceeds 2^60 (RFC 9000 §19.11, §19.14)");
        }
        return count;
    }

    private static NewConnectionIdFrame decodeNewConnectionId(ByteBuffer b, long type, int start) throws QuicException {
        long seq = VarInt.read(b, type);
        long retirePriorTo = VarInt.read(b, type);
        if (!b.hasRemaining()) {
            throw error(type, start, "NEW_CONNECTION_ID ends before its Length field");
        }
        int length = b.get() & 0xff;
        if (length < 1 || length > 20) {
            throw error(type, start, "NEW_CONNECTION_ID connection ID length " + length + " is outside 1..20 (RFC 9000 §19.15)");
        }
        if (retirePriorTo > seq) {
            throw error(type, start, "NEW_CONNECTION_ID Retire Prior To " + retirePriorTo + " exceeds sequence number "
                    + seq + " (RFC 9000 §19.15)");
        }
        byte[] cid = bytes(b, length, type, start, "NEW_CONNECTION_ID connection ID");
        byte[] token = bytes(b, 16, type, start, "NEW_CONNECTION_ID stateless reset token");
        return new NewConnectionIdFrame(seq, retirePriorTo, cid, token);
    }

    private static ConnectionCloseFrame decodeConnectionClose(ByteBuffer b, long type, int start) throws QuicException {
        boolean application = type == FrameType.CONNECTION_CLOSE_APP;
        long errorCode = VarInt.read(b, type);
        long frameType = application ? 0 : VarInt.read(b, type);
        int length = length(b, type, start, "CONNECTION_CLOSE reason length");
        String reason = new String(bytes(b, length, type, start, "CONNECTION_CLOSE reason"), StandardCharsets.UTF_8);
        return new ConnectionCloseFrame(application, errorCode, frameType, reason);
    }

    /** Reads a length varint and checks that that many bytes remain. */
    private static int length(ByteBuffer b, long type, int start, String field) throws QuicException {
        long length = VarInt.read(b, type);
        if (length > b.remaining()) {
            throw error(type, start, field + " " + length + " exceeds the " + b.remaining() + " bytes left in the packet");
        }
        return (int) length;
    }

    private static byte[] bytes(ByteBuffer b, int n, long type, int start, String field) throws QuicException {
        if (n > b.remaining()) {
            throw error(type, start, field + " needs " + n + " bytes but only " + b.remaining() + " remain");
        }
        byte[] out = new byte[n];
        b.get(out);
        return out;
    }

    private static QuicException error(long type, int start, String what) {
        return new QuicException(TransportError.FRAME_ENCODING_ERROR, type,
                "malformed " + FrameType.name(type) + " frame at byte offset " + start + ": " + what);
    }

    // ---------------------------------------------------------------------------------------- encoding

    /** Writes {@code f} at the buffer's position. STREAM frames are written with the LEN bit set. */
    public static void encode(Frame f, ByteBuffer out) {
        switch (f) {
            case PaddingFrame p -> {
                int n = p.length();
                while (n > 0) {
                    int chunk = Math.min(n, ZEROS.length);
                    out.put(ZEROS, 0, chunk);
                    n -= chunk;
                }
            }
            case PingFrame p -> out.put((byte) FrameType.PING);
            case AckFrame a -> encodeAck(a, out);
            case ResetStreamFrame r -> {
                out.put((byte) FrameType.RESET_STREAM);
                VarInt.write(out, r.streamId());
                VarInt.write(out, r.errorCode());
                VarInt.write(out, r.finalSize());
            }
            case StopSendingFrame s -> {
                out.put((byte) FrameType.STOP_SENDING);
                VarInt.write(out, s.streamId());
                VarInt.write(out, s.errorCode());
            }
            case CryptoFrame c -> {
                out.put((byte) FrameType.CRYPTO);
                VarInt.write(out, c.offset());
                VarInt.write(out, c.data().length);
                out.put(c.data());
            }
            case NewTokenFrame t -> {
                out.put((byte) FrameType.NEW_TOKEN);
                VarInt.write(out, t.token().length);
                out.put(t.token());
            }
            case StreamFrame s -> {
                StreamFrame.encodeHeader(out, s.streamId(), s.offset(), s.data().length, s.fin());
                out.put(s.data());
            }
            case MaxDataFrame m -> {
                out.put((byte) FrameType.MAX_DATA);
                VarInt.write(out, m.max());
            }
            case MaxStreamDataFrame m -> {
                out.put((byte) FrameType.MAX_STREAM_DATA);
                VarInt.write(out, m.streamId());
                VarInt.write(out, m.max());
            }
            case MaxStreamsFrame m -> {
                out.put((byte) m.type());
                VarInt.write(out, m.max());
            }
            case DataBlockedFrame d -> {
                out.put((byte) FrameType.DATA_BLOCKED);
                VarInt.write(out, d.limit());
            }
            case StreamDataBlockedFrame s -> {
                out.put((byte) FrameType.STREAM_DATA_BLOCKED);
                VarInt.write(out, s.streamId());
                VarInt.write(out, s.limit());
            }
            case StreamsBlockedFrame s -> {
                out.put((byte) s.type());
                VarInt.write(out, s.limit());
            }
            case NewConnectionIdFrame n -> {
                out.put((byte) FrameType.NEW_CONNECTION_ID);
                VarInt.write(out, n.sequenceNumber());
                VarInt.write(out, n.retirePriorTo());
                out.put((byte) n.connectionId().length);
                out.put(n.connectionId());
                out.put(n.statelessResetToken());
            }
            case RetireConnectionIdFrame r -> {
                out.put((byte) FrameType.RETIRE_CONNECTION_ID);
                VarInt.write(out, r.sequenceNumber());
            }
            case PathChallengeFrame p -> {
                out.put((byte) FrameType.PATH_CHALLENGE);
                out.put(p.data());
            }
            case PathResponseFrame p -> {
                out.put((byte) FrameType.PATH_RESPONSE);
                out.put(p.data());
            }
            case ConnectionCloseFrame c -> {
                byte[] reason = c.reason().getBytes(StandardCharsets.UTF_8);
                out.put((byte) c.type());
                VarInt.write(out, c.errorCode());
                if (!c.application()) {
                    VarInt.write(out, c.frameType());
                }
                VarInt.write(out, reason.length);
                out.put(reason);
            }
            case HandshakeDoneFrame h -> out.put((byte) FrameType.HANDSHAKE_DONE);
            case ImmediateAckFrame i -> out.put((byte) FrameType.IMMEDIATE_ACK);
            case AckFrequencyFrame a -> {
                VarInt.write(out, FrameType.ACK_FREQUENCY);
                VarInt.write(out, a.sequenceNumber());
                VarInt.write(out, a.ackElicitingThreshold());
                VarInt.write(out, a.requestMaxAckDelay());
                VarInt.write(out, a.reorderingThreshold());
            }
            default -> throw new IllegalArgumentException("cannot encode frame class " + f.getClass().getName());
        }
    }

    private static void encodeAck(AckFrame a, ByteBuffer out) {
        long[] r = a.ranges();
        out.put((byte) a.type());
        VarInt.write(out, a.largestAcknowledged());
        VarInt.write(out, a.ackDelay());
        VarInt.write(out, (r.length >> 1) - 1);
        VarInt.write(out, r[0] - r[1]);
        for (int i = 2; i < r.length; i += 2) {
            VarInt.write(out, r[i - 1] - r[i] - 2);
            VarInt.write(out, r[i] - r[i + 1]);
        }
        EcnCounts ecn = a.ecn();
        if (ecn != null) {
            VarInt.write(out, ecn.ect0());
            VarInt.write(out, ecn.ect1());
            VarInt.write(out, ecn.ce());
        }
    }

    /** The number of bytes {@link #encode} writes for {@code f}. */
    public static int encodedLength(Frame f) {
        return switch (f) {
            case PaddingFrame p -> p.length();
            case PingFrame p -> 1;
            case AckFrame a -> ackLength(a);
            case ResetStreamFrame r -> 1 + VarInt.size(r.streamId()) + VarInt.size(r.errorCode()) + VarInt.size(r.finalSize());
            case StopSendingFrame s -> 1 + VarInt.size(s.streamId()) + VarInt.size(s.errorCode());
            case CryptoFrame c -> 1 + VarInt.size(c.offset()) + VarInt.size(c.data().length) + c.data().length;
            case NewTokenFrame t -> 1 + VarInt.size(t.token().length) + t.token().length;
            case StreamFrame s -> StreamFrame.headerLength(s.streamId(), s.offset(), s.data().length) + s.data().length;
            case MaxDataFrame m -> 1 + VarInt.size(m.max());
            case MaxStreamDataFrame m -> 1 + VarInt.size(m.streamId()) + VarInt.size(m.max());
            case MaxStreamsFrame m -> 1 + VarInt.size(m.max());
            case DataBlockedFrame d -> 1 + VarInt.size(d.limit());
            case StreamDataBlockedFrame s -> 1 + VarInt.size(s.streamId()) + VarInt.size(s.limit());
            case StreamsBlockedFrame s -> 1 + VarInt.size(s.limit());
            case NewConnectionIdFrame n -> 1 + VarInt.size(n.sequenceNumber()) + VarInt.size(n.retirePriorTo()) + 1
                    + n.connectionId().length + 16;
            case RetireConnectionIdFrame r -> 1 + VarInt.size(r.sequenceNumber());
            case PathChallengeFrame p -> 9;
            case PathResponseFrame p -> 9;
            case ConnectionCloseFrame c -> {
                int reason = c.reason().getBytes(StandardCharsets.UTF_8).length;
                yield 1 + VarInt.size(c.errorCode()) + (c.application() ? 0 : VarInt.size(c.frameType()))
                        + VarInt.size(reason) + reason;
            }
            case HandshakeDoneFrame h -> 1;
            case ImmediateAckFrame i -> 1;
            case AckFrequencyFrame a -> VarInt.size(FrameType.ACK_FREQUENCY) + VarInt.size(a.sequenceNumber())
                    + VarInt.size(a.ackElicitingThreshold()) + VarInt.size(a.requestMaxAckDelay())
                    + VarInt.size(a.reorderingThreshold());
            default -> throw new IllegalArgumentException("cannot encode frame class " + f.getClass().getName());
        };
    }

    private static int ackLength(AckFrame a) {
        long[] r = a.ranges();
        int n = 1 + VarInt.size(a.largestAcknowledged()) + VarInt.size(a.ackDelay()) + VarInt.size((r.length >> 1) - 1)
                + VarInt.size(r[0] - r[1]);
        for (int i = 2; i < r.length; i += 2) {
            n += VarInt.size(r[i - 1] - r[i] - 2) + VarInt.size(r[i] - r[i + 1]);
        }
        EcnCounts ecn = a.ecn();
        if (ecn != null) {
            n += VarInt.size(ecn.ect0()) + VarInt.size(ecn.ect1()) + VarInt.size(ecn.ce());
        }
        return n;
    }
}
