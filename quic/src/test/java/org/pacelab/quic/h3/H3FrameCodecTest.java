package org.pacelab.quic.h3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;
import org.pacelab.quic.wire.VarInt;

class H3FrameCodecTest {
    private static final HexFormat HEX = HexFormat.of();

    @Test
    void encodesFramesAsTypeLengthPayload() {
        assertEquals("0404" + "0100" + "0700", hex(H3FrameCodec.encode(new H3Frame.Settings(List.of(
                new H3Frame.Setting(SettingId.QPACK_MAX_TABLE_CAPACITY, 0),
                new H3Frame.Setting(SettingId.QPACK_BLOCKED_STREAMS, 0))))));
        assertEquals("0701" + "04", hex(H3FrameCodec.encode(new H3Frame.Goaway(4))));
        assertEquals("0d02" + "4100", hex(H3FrameCodec.encode(new H3Frame.MaxPushId(256))));
        assertEquals("0301" + "07", hex(H3FrameCodec.encode(new H3Frame.CancelPush(7))));
        assertEquals("0103" + "0000d1", hex(H3FrameCodec.encode(new H3Frame.Headers(HEX.parseHex("0000d1")))));
        assertEquals("0503" + "01" + "0000", hex(H3FrameCodec.encode(new H3Frame.PushPromise(1, HEX.parseHex("0000")))));
        ByteBuffer b = ByteBuffer.allocate(16);
        H3FrameCodec.writeHeader(b, FrameType.DATA, 10L * 1024 * 1024 * 1024);
        assertEquals("00" + "c000000280000000", hex(b.flip()));
    }

    @Test
    void typesAndSettingsOfHttp2AreRecognised() {
        for (long t : new long[] {0x02, 0x06, 0x08, 0x09}) {
            assertTrue(FrameType.isHttp2Only(t));
        }
        for (long id : new long[] {0x00, 0x02, 0x03, 0x04, 0x05}) {
            assertTrue(SettingId.isHttp2Only(id));
        }
        assertEquals("reserved(0x40)", H3Error.nameOf(0x40));
        assertEquals("H3_MESSAGE_ERROR", H3Error.nameOf(0x10e));
        assertEquals("QPACK_DECODER_STREAM_ERROR", H3Error.nameOf(0x202));
    }

    @Property(tries = 300)
    void framesRoundTripWhateverTheSplit(@ForAll("frames") List<H3Frame> frames,
            @ForAll @IntRange(min = 1, max = 9) int piece) throws H3Exception {
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        for (H3Frame f : frames) {
            ByteBuffer b = H3FrameCodec.encode(f);
            wire.write(b.array(), b.position(), b.remaining());
        }
        byte[] bytes = wire.toByteArray();
        List<H3Frame> decoded = new ArrayList<>();
        FrameReader reader = new FrameReader(1 << 16);
        FrameReader.Sink sink = new FrameReader.Sink() {
            @Override
            public void frameStarted(long type, long length) {
            }

            @Override
            public void dataPayload(ByteBuffer payload) {
            }

            @Override
            public void frameComplete(H3Frame frame) {
                decoded.add(frame);
            }
        };
        for (int i = 0; i < bytes.length; i += piece) {
            reader.consume(ByteBuffer.wrap(bytes, i, Math.min(piece, bytes.length - i)), sink);
        }
        assertTrue(reader.atFrameBoundary());
        assertEquals(frames.size(), decoded.size());
        for (int i = 0; i < frames.size(); i++) {
            assertEquals(hex(H3FrameCodec.encode(frames.get(i))), hex(H3FrameCodec.encode(decoded.get(i))));
        }
    }

    @Property(tries = 300)
    void dataPayloadsArriveInPlaceAndUnknownFramesAreSkipped(@ForAll @Size(max = 3000) byte[] payload,
            @ForAll @IntRange(min = 1, max = 700) int piece) throws H3Exception {
        ByteBuffer wire = ByteBuffer.allocate(payload.length + 64);
        H3FrameCodec.writeHeader(wire, 0x21 + 0x1f * 3, 5);
        wire.put(new byte[5]);
        H3FrameCodec.writeHeader(wire, FrameType.DATA, payload.length);
        wire.put(payload);
        wire.flip();
        ByteArrayOutputStream data = new ByteArrayOutputStream();
        List<Long> types = new ArrayList<>();
        FrameReader reader = new FrameReader(16);
        FrameReader.Sink sink = new FrameReader.Sink() {
            @Override
            public void frameStarted(long type, long length) {
                types.add(type);
            }

            @Override
            public void dataPayload(ByteBuffer p) {
                byte[] b = new byte[p.remaining()];
                p.get(b);
                data.writeBytes(b);
            }

            @Override
            public void frameComplete(H3Frame frame) {
                throw new AssertionError("no complete frames expected");
            }
        };
        while (wire.hasRemaining()) {
            ByteBuffer part = wire.slice(wire.position(), Math.min(piece, wire.remaining()));
            reader.consume(part, sink);
            assertEquals(part.limit(), part.position());
            wire.position(wire.position() + part.limit());
        }
        assertEquals(List.of(0x21L + 0x1f * 3, FrameType.DATA), types);
        assertArrayEquals(payload, data.toByteArray());
    }

    @Property(tries = 1000)
    void malformedPayloadsFailOnlyWithH3Errors(@ForAll @IntRange(min = 0, max = 13) int typeIndex,
            @ForAll @Size(max = 20) byte[] payload) {
        long type = new long[] {FrameType.SETTINGS, FrameType.GOAWAY, FrameType.MAX_PUSH_ID, FrameType.CANCEL_PUSH,
                FrameType.PUSH_PROMISE, FrameType.HEADERS}[typeIndex % 6];
        try {
            H3FrameCodec.decodePayload(type, ByteBuffer.wrap(payload));
        } catch (H3Exception e) {
            assertTrue(e.code() == H3Error.H3_FRAME_ERROR.code || e.code() == H3Error.H3_SETTINGS_ERROR.code,
                    e.toString());
        }
    }

    @Test
    void truncatedFieldsAreFrameErrors() {
        H3Exception e = assertThrows(H3Exception.class,
                () -> H3FrameCodec.decodePayload(FrameType.GOAWAY, ByteBuffer.wrap(HEX.parseHex("40"))));
        assertEquals(H3Error.H3_FRAME_ERROR.code, e.code());
        e = assertThrows(H3Exception.class,
                () -> H3FrameCodec.decodePayload(FrameType.MAX_PUSH_ID, ByteBuffer.allocate(0)));
        assertEquals(H3Error.H3_FRAME_ERROR.code, e.code());
    }

    @Provide
    Arbitrary<List<H3Frame>> frames() {
        Arbitrary<Long> ids = Arbitraries.oneOf(Arbitraries.longs().between(0, 70),
                Arbitraries.longs().between(0, VarInt.MAX));
        Arbitrary<byte[]> blocks = Arbitraries.bytes().array(byte[].class).ofMaxSize(40);
        Arbitrary<H3Frame> settings = Combinators.combine(Arbitraries.longs().between(6, 1 << 20), ids)
                .as((id, v) -> (H3Frame) new H3Frame.Settings(List.of(new H3Frame.Setting(id, v))));
        return Arbitraries.oneOf(
                settings,
                ids.map(H3Frame.Goaway::new),
                ids.map(H3Frame.MaxPushId::new),
                ids.map(H3Frame.CancelPush::new),
                blocks.map(H3Frame.Headers::new),
                Combinators.combine(ids, blocks).as(H3Frame.PushPromise::new)).list().ofMaxSize(6);
    }

    private static String hex(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return HEX.formatHex(out);
    }
}
