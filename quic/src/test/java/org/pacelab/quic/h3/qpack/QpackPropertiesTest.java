package org.pacelab.quic.h3.qpack;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

class QpackPropertiesTest {

    @Property(tries = 500)
    void decodeOfEncodeIsIdentity(@ForAll("fieldLists") List<HeaderField> fields) throws QpackException {
        byte[] encoded = FieldSectionEncoder.encode(fields);
        assertEquals(fields, FieldSectionDecoder.decode(ByteBuffer.wrap(encoded)));
    }

    @Property(tries = 1000)
    void arbitraryBytesDecodeOrFailWithAQpackError(@ForAll @Size(max = 64) byte[] bytes) {
        try {
            FieldSectionDecoder.decode(ByteBuffer.wrap(bytes));
        } catch (QpackException e) {
            assertEquals(QpackError.QPACK_DECOMPRESSION_FAILED, e.error());
        }
    }

    @Property(tries = 1000)
    void mutatedValidSectionsDecodeOrFailWithAQpackError(@ForAll("fieldLists") List<HeaderField> fields,
            @ForAll @IntRange(min = 0, max = 10_000) int position, @ForAll byte xor,
            @ForAll @IntRange(min = 0, max = 10_000) int cut) {
        byte[] encoded = FieldSectionEncoder.encode(fields);
        encoded[position % encoded.length] ^= xor;
        int length = cut % (encoded.length + 1);
        try {
            FieldSectionDecoder.decode(ByteBuffer.wrap(encoded, 0, length));
        } catch (QpackException e) {
            assertEquals(QpackError.QPACK_DECOMPRESSION_FAILED, e.error());
        }
    }

    @Property(tries = 1000)
    void instructionStreamsTakeAnyBytesInAnyPiecesAndFailOnlyWithQpackErrors(@ForAll @Size(max = 40) byte[] bytes,
            @ForAll @IntRange(min = 1, max = 7) int piece) {
        EncoderStreamReceiver encoderStream = new EncoderStreamReceiver();
        DecoderStreamReceiver decoderStream = new DecoderStreamReceiver();
        boolean encoderFailed = false;
        boolean decoderFailed = false;
        for (int i = 0; i < bytes.length; i += piece) {
            ByteBuffer chunk = ByteBuffer.wrap(bytes, i, Math.min(piece, bytes.length - i));
            try {
                if (!encoderFailed) {
                    encoderStream.receive(chunk.duplicate());
                }
            } catch (QpackException e) {
                assertEquals(QpackError.QPACK_ENCODER_STREAM_ERROR, e.error());
                encoderFailed = true;
            }
            try {
                if (!decoderFailed) {
                    decoderStream.receive(chunk.duplicate());
                }
            } catch (QpackException e) {
                assertEquals(QpackError.QPACK_DECODER_STREAM_ERROR, e.error());
                decoderFailed = true;
            }
        }
    }

    @Provide
    Arbitrary<List<HeaderField>> fieldLists() {
        Arbitrary<String> octets = Arbitraries.strings().withCharRange((char) 0, (char) 255).ofMaxLength(80);
        Arbitrary<String> tokens = Arbitraries.strings().withCharRange('a', 'z').withChars('-', ':').ofMinLength(1)
                .ofMaxLength(20);
        Arbitrary<HeaderField> arbitrary = Combinators.combine(Arbitraries.oneOf(tokens, octets), octets)
                .as(HeaderField::new);
        Arbitrary<HeaderField> fromStaticTable = Arbitraries.integers().between(0, StaticTable.size() - 1)
                .map(StaticTable::get);
        Arbitrary<HeaderField> staticName = Combinators.combine(fromStaticTable, octets)
                .as((f, v) -> new HeaderField(f.name(), v));
        return Arbitraries.oneOf(arbitrary, fromStaticTable, staticName).list().ofMaxSize(12);
    }
}
