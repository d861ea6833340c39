package org.pacelab.quic.frame;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;
import org.pacelab.quic.QuicException;
import org.pacelab.quic.TransportError;
import org.pacelab.quic.wire.Bytes;

class FrameCodecTest {

    @Provide
    Arbitrary<Frame> anyFrame() { return FrameArbitraries.any(); }

    @Provide
    Arbitrary<Frame> nonPaddingFrame() { return FrameArbitraries.nonPadding(); }

    static byte[] encode(Frame f) {
        ByteBuffer b = ByteBuffer.allocate(FrameCodec.encodedLength(f));
        FrameCodec.encode(f, b);
        assertEquals(b.capacity(), b.position(), "encodedLength matches bytes written for " + f);
        return b.array();
    }

    static QuicException decodeError(String hex) {
        return assertThrows(QuicException.class, () -> FrameCodec.decode(ByteBuffer.wrap(Bytes.fromHex(hex))));
    }

    @Property(tries = 2000)
    void everyFrameRoundTrips(@ForAll("anyFrame") Frame f) throws QuicException {
        byte[] enc = encode(f);
        ByteBuffer b = ByteBuffer.wrap(enc);
        Frame back = FrameCodec.decode(b);
        assertEquals(f, back);
        assertEquals(f.hashCode(), back.hashCode());
        assertEquals(f.toString(), back.toString());
        assertEquals(0, b.remaining());
    }

    @Property(tries = 500)
    void everyStrictPrefixIsRejectedWithQuicException(@ForAll("nonPaddingFrame") Frame f) {
        byte[] enc = encode(f);
        for (int len = 0; len < enc.length; len++) {
            ByteBuffer prefix = ByteBuffer.wrap(enc, 0, len);
            int l = len;
            QuicException e = assertThrows(QuicException.class, () -> FrameCodec.decode(prefix),
                    () -> "prefix of " + l + "/" + enc.length + " bytes of " + f);
            assertEquals(TransportError.FRAME_ENCODING_ERROR.code, e.errorCode());
        }
    }

    @Property(tries = 3000)
    void randomBytesNeverThrowAnythingButQuicException(@ForAll @Size(max = 64) byte[] junk) {
        ByteBuffer b = ByteBuffer.wrap(junk);
        try {
            while (b.hasRemaining()) {
                int before = b.position();
                FrameCodec.decode(b);
                assertTrue(b.position() > before, "decode advances");
            }
        } catch (QuicException expected) {
            assertTrue(expected.getMessage().contains("byte offset"), expected.getMessage());
        }
    }

    @Property(tries = 300)
    void framesConcatenateInOnePayload(@ForAll @Size(max = 6) List<@net.jqwik.api.From("nonPaddingFrame") Frame> frames)
            throws QuicException {
        ByteBuffer b = ByteBuffer.allocate(frames.stream().mapToInt(FrameCodec::encodedLength).sum());
        frames.forEach(f -> FrameCodec.encode(f, b));
        assertEquals(frames, FrameCodec.decodeAll(b.flip()));
    }

    @Provide
    Arbitrary<StreamFrame> streamFrame() { return FrameArbitraries.stream(); }

    /**
     * The receive path's decoding of a STREAM frame — its header, then the data left where it is — agrees with the
     * decoder of whole frames, with and without the LEN bit, and leaves the position at the data.
     */
    @Property(tries = 500)
    void streamHeaderDecodingAgreesWithWholeFrames(@ForAll("streamFrame") StreamFrame f, @ForAll boolean withLength)
            throws QuicException {
        ByteBuffer b = ByteBuffer.allocate(2000);
        b.put((byte) 0xaa); // a byte before the frame: decoding starts at the position
        StreamFrame.encodeHeader(b, f.streamId(), f.offset(), f.data().length, f.fin(), withLength);
        int headerEnd = b.position();
        b.put(f.data()).flip().position(1);
        assertTrue(FrameCodec.atStreamFrame(b));
        StreamFrameHeader h = FrameCodec.decodeStreamHeader(b);
        assertEquals(headerEnd, b.position());
        assertEquals(new StreamFrameHeader(f.streamId(), f.offset(), f.data().length, f.fin()), h);
        b.position(1);
        assertEquals(f, FrameCodec.decode(b));
    }

    @Test
    void aTruncatedStreamHeaderIsAFrameEncodingError() {
        ByteBuffer b = ByteBuffer.wrap(Bytes.fromHex("0e00"));
        QuicException e = assertThrows(QuicException.class, () -> FrameCodec.decodeStreamHeader(b));
        assertEquals(TransportError.FRAME_ENCODING_ERROR.code, e.errorCode());
        ByteBuffer longer = ByteBuffer.wrap(Bytes.fromHex("0a0005414141"));
        assertEquals(TransportError.FRAME_ENCODING_ERROR.code,
                assertThrows(QuicException.class, () -> FrameCodec.decodeStreamHeader(longer)).errorCode(),
                "a length beyond the packet");
        assertFalse(FrameCodec.atStreamFrame(ByteBuffer.wrap(Bytes.fromHex("4008000141"))),
                "a STREAM type in two bytes is the whole-frame decoder's to refuse (RFC 9000 §12.4)");
    }

    @Test
    void consecutivePaddingCollapses() throws QuicException {
        ByteBuffer b = ByteBuffer.wrap(Bytes.fromHex("0000000001000000"));
        assertEquals(new PaddingFrame(4), FrameCodec.decode(b));
        assertEquals(PingFrame.INSTANCE, FrameCodec.decode(b));
        assertEquals(new PaddingFrame(3), FrameCodec.decode(b));
        assertFalse(b.hasRemaining());
        assertFalse(new PaddingFrame(3).ackEliciting());
        assertTrue(new PaddingFrame(3).countsInFlight());
    }

    @Test
    void unknownFrameTypeIsFrameEncodingErrorNamingTheType() {
        QuicException e = decodeError("21");
        assertEquals(TransportError.FRAME_ENCODING_ERROR.code, e.errorCode());
        assertEquals(0x21, e.frameType());
        QuicException datagram = decodeError("4030"); // DATAGRAM (RFC 9221) is not negotiated
        assertEquals(0x30, datagram.frameType());
    }

    @Test
    void ackFrequencyFramesRoundTrip() throws QuicException {
        AckFrequencyFrame f = new AckFrequencyFrame(3, 9, 10_000, 3);
        ByteBuffer b = ByteBuffer.allocate(64);
        FrameCodec.encode(f, b);
        assertEquals(FrameCodec.encodedLength(f), b.position());
        // the type 0xaf needs a two-byte variable-length integer: 40 af
        assertEquals("40af0309" + "6710" + "03", java.util.HexFormat.of().formatHex(b.array(), 0, b.position()));
        b.flip();
        assertEquals(f, FrameCodec.decode(b));
        assertEquals(ImmediateAckFrame.INSTANCE, FrameCodec.decode(ByteBuffer.wrap(new byte[] {0x1f})));
        assertTrue(ImmediateAckFrame.INSTANCE.ackEliciting() && f.ackEliciting());
        // a longer encoding of 0xaf than needed breaks RFC 9000 §12.4
        assertEquals(TransportError.PROTOCOL_VIOLATION.code, decodeError("800000af00000000").errorCode());
    }

    @Test
    void nonMinimalTypeEncodingIsProtocolViolation() {
        QuicException e = decodeError("4001");
        assertEquals(TransportError.PROTOCOL_VIOLATION.code, e.errorCode());
        assertEquals(0x01, e.frameType());
    }

    @Test
    void maxStreamsAbove2To60IsRejected() {
        // 2^60 + 1 as an 8-byte varint
        QuicException e = decodeError("12" + "d000000000000001");
        assertEquals(TransportError.FRAME_ENCODING_ERROR.code, e.errorCode());
        assertEquals(0x12, e.frameType());
        assertEquals(0x17, decodeError("17" + "d000000000000001").frameType());
    }

    @Test
    void newConnectionIdRules() {
        String token = "00112233445566778899aabbccddeeff";
        assertEquals(0x18, decodeError("18" + "01" + "00" + "00" + token).frameType()); // length 0
        assertEquals(TransportError.FRAME_ENCODING_ERROR.code,
                decodeError("18" + "01" + "00" + "15" + "00".repeat(21) + token).errorCode()); // length 21
        assertEquals(TransportError.FRAME_ENCODING_ERROR.code,
                decodeError("18" + "01" + "02" + "04" + "01020304" + token).errorCode()); // retire 2 > seq 1
    }

    @Test
    void ackRangeUnderflowIsRejected() {
        // largest 5, first range 6 > largest
        assertEquals(TransportError.FRAME_ENCODING_ERROR.code, decodeError("02" + "05" + "00" + "00" + "06").errorCode());
        // largest 5, first range 2 (5..3), one more range: gap 1 -> hi = 3 - 1 - 2 = 0, length 1 -> lo = -1
        assertEquals(0x02, decodeError("02" + "05" + "00" + "01" + "02" + "01" + "01").frameType());
        // range count far larger than the bytes left
        assertEquals(TransportError.FRAME_ENCODING_ERROR.code, decodeError("02" + "05" + "00" + "bfffffff" + "00").errorCode());
    }

    @Test
    void ackDecodesRangesAndEcn() throws QuicException {
        // largest 10, delay 3, 1 more range, first range 2 (10..8), gap 0 -> hi 6, length 1 -> 6..5, ECN 1 2 3
        Frame f = FrameCodec.decode(ByteBuffer.wrap(Bytes.fromHex("03" + "0a" + "03" + "01" + "02" + "00" + "01" + "010203")));
        AckFrame a = assertInstanceOf(AckFrame.class, f);
        assertArrayEquals(new long[] {10, 8, 6, 5}, a.ranges());
        assertEquals(new EcnCounts(1, 2, 3), a.ecn());
        assertEquals(5, a.smallest());
        assertTrue(a.acks(10) && a.acks(8) && a.acks(6) && a.acks(5));
        assertFalse(a.acks(7) || a.acks(11) || a.acks(4));
        assertFalse(a.ackEliciting());
        assertFalse(a.countsInFlight());
        assertEquals(FrameType.ACK_ECN, a.type());
    }

    @Test
    void ackFrameRejectsInvalidRanges() {
        assertThrows(IllegalArgumentException.class, () -> AckFrame.of(0, new long[] {10, 8, 7, 5}, null)); // no gap
        assertThrows(IllegalArgumentException.class, () -> AckFrame.of(0, new long[] {10, 11}, null));
        assertThrows(IllegalArgumentException.class, () -> AckFrame.of(0, new long[] {10}, null));
        assertThrows(IllegalArgumentException.class, () -> new AckFrame(9, 0, new long[] {10, 1}, null));
    }

    @Test
    void streamOffsetPlusLengthAbove2To62IsRejected() {
        // type 0x0e (OFF|LEN), stream 0, offset 2^62-1, length 1, data 1 byte
        QuicException e = decodeError("0e" + "00" + "ffffffffffffffff" + "01" + "aa");
        assertEquals(TransportError.FRAME_ENCODING_ERROR.code, e.errorCode());
        assertEquals(0x0e, e.frameType());
        assertEquals(0x06, decodeError("06" + "ffffffffffffffff" + "01" + "aa").frameType());
    }

    @Test
    void streamWithoutLengthRunsToEndOfPacket() throws QuicException {
        StreamFrame s = (StreamFrame) FrameCodec.decode(ByteBuffer.wrap(Bytes.fromHex("0d" + "04" + "4100" + "aabbcc")));
        assertEquals(new StreamFrame(4, 0x100, Bytes.fromHex("aabbcc"), true), s);
    }

    @Test
    void streamHeaderEncodingLetsPayloadFollow() throws QuicException {
        byte[] payload = Bytes.fromHex("0102030405");
        ByteBuffer out = ByteBuffer.allocate(64);
        int n = StreamFrame.encodeHeader(out, 7, 1000, payload.length, false);
        assertEquals(StreamFrame.headerLength(7, 1000, payload.length), n);
        out.put(payload);
        assertEquals(new StreamFrame(7, 1000, payload, false), FrameCodec.decode(out.flip()));
        ByteBuffer last = ByteBuffer.allocate(64);
        StreamFrame.encodeHeader(last, 7, 0, payload.length, true, false);
        last.put(payload);
        assertEquals(new StreamFrame(7, 0, payload, true), FrameCodec.decode(last.flip()));
    }

    @Test
    void emptyNewTokenIsRejected() {
        assertEquals(0x07, decodeError("0700").frameType());
    }

    @Test
    void connectionCloseFlags() {
        ConnectionCloseFrame c = new ConnectionCloseFrame(true, 1, 0, "bye");
        assertEquals(0x1d, c.type());
        assertFalse(c.ackEliciting());
        assertFalse(c.countsInFlight());
        assertEquals(0x1c, new ConnectionCloseFrame(false, 1, 6, "").type());
    }

    @Test
    void arrayRecordsCompareContents() {
        assertEquals(new CryptoFrame(1, new byte[] {1, 2}), new CryptoFrame(1, new byte[] {1, 2}));
        assertNotEquals(new CryptoFrame(1, new byte[] {1, 2}), new CryptoFrame(1, new byte[] {1, 3}));
        assertEquals(new PathChallengeFrame(new byte[8]).hashCode(), new PathChallengeFrame(new byte[8]).hashCode());
        assertTrue(new StreamFrame(0, 0, new byte[100], false).toString().contains("length=100"));
    }

    @Test
    void allowedInFollowsTable3() {
        var I = org.pacelab.quic.packet.PacketType.INITIAL;
        var H = org.pacelab.quic.packet.PacketType.HANDSHAKE;
        var Z = org.pacelab.quic.packet.PacketType.ZERO_RTT;
        var O = org.pacelab.quic.packet.PacketType.ONE_RTT;
        for (long t : new long[] {0x00, 0x01, 0x1c}) {
            for (var p : List.of(I, H, Z, O)) {
                assertTrue(FrameRules.allowedIn(t, p), t + " in " + p);
            }
        }
        assertTrue(FrameRules.allowedIn(FrameType.ACK, I) && FrameRules.allowedIn(FrameType.CRYPTO, H));
        assertFalse(FrameRules.allowedIn(FrameType.ACK_ECN, Z) || FrameRules.allowedIn(FrameType.CRYPTO, Z));
        assertFalse(FrameRules.allowedIn(0x0b, I) || FrameRules.allowedIn(0x0b, H));
        assertTrue(FrameRules.allowedIn(0x0b, Z) && FrameRules.allowedIn(0x0f, O));
        assertFalse(FrameRules.allowedIn(FrameType.CONNECTION_CLOSE_APP, I) || FrameRules.allowedIn(FrameType.CONNECTION_CLOSE_APP, H));
        assertTrue(FrameRules.allowedIn(FrameType.CONNECTION_CLOSE_APP, Z));
        for (long t : new long[] {FrameType.NEW_TOKEN, FrameType.PATH_RESPONSE, FrameType.HANDSHAKE_DONE}) {
            assertFalse(FrameRules.allowedIn(t, Z) || FrameRules.allowedIn(t, I) || FrameRules.allowedIn(t, H));
            assertTrue(FrameRules.allowedIn(t, O));
        }
        assertTrue(FrameRules.allowedIn(FrameType.PATH_CHALLENGE, Z));
        assertFalse(FrameRules.allowedIn(FrameType.PING, org.pacelab.quic.packet.PacketType.RETRY));
        assertFalse(FrameRules.allowedIn(0x21, O));
        // draft-ietf-quic-ack-frequency: ACK_FREQUENCY only in 1-RTT packets, IMMEDIATE_ACK in 0-RTT and 1-RTT
        assertTrue(FrameRules.allowedIn(FrameType.ACK_FREQUENCY, O));
        assertFalse(FrameRules.allowedIn(FrameType.ACK_FREQUENCY, Z) || FrameRules.allowedIn(FrameType.ACK_FREQUENCY, I));
        assertTrue(FrameRules.allowedIn(FrameType.IMMEDIATE_ACK, O) && FrameRules.allowedIn(FrameType.IMMEDIATE_ACK, Z));
        assertFalse(FrameRules.allowedIn(FrameType.IMMEDIATE_ACK, H));
        assertTrue(Arrays.stream(new long[] {0x04, 0x05, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19})
                .allMatch(t -> !FrameRules.allowedIn(t, I) && !FrameRules.allowedIn(t, H) && FrameRules.allowedIn(t, Z)
                        && FrameRules.allowedIn(t, O)));
    }
}
