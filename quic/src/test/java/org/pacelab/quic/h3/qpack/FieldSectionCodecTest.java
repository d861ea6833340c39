package org.pacelab.quic.h3.qpack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FieldSectionCodecTest {
    private static final HexFormat HEX = HexFormat.of();

    @Test
    void staticTableHasNinetyNineEntriesAsInAppendixA() {
        assertEquals(99, StaticTable.size());
        assertEquals(new HeaderField(":authority", ""), StaticTable.get(0));
        assertEquals(new HeaderField(":method", "GET"), StaticTable.get(17));
        assertEquals(new HeaderField(":status", "200"), StaticTable.get(25));
        assertEquals(new HeaderField("x-frame-options", "sameorigin"), StaticTable.get(98));
    }

    @Test
    void decodesRfc9204AppendixB1() throws QpackException {
        List<HeaderField> fields = decode("0000510b2f696e6465782e68746d6c");
        assertEquals(List.of(new HeaderField(":path", "/index.html")), fields);
    }

    @Test
    void decodesStaticReferencesAndHuffmanLiterals() throws QpackException {
        // :method GET (static 17), :scheme https (23), :authority with Huffman "www.example.com",
        // then literal name "x-a" plain with Huffman value "no-cache".
        List<HeaderField> fields = decode("0000d1d7508cf1e3c2e5f23a6ba0ab90f4ff" + "23782d6186a8eb10649cbf");
        assertEquals(List.of(
                new HeaderField(":method", "GET"),
                new HeaderField(":scheme", "https"),
                new HeaderField(":authority", "www.example.com"),
                new HeaderField("x-a", "no-cache")), fields);
    }

    @Test
    void encoderUsesStaticTableAndHuffman() throws QpackException {
        List<HeaderField> fields = List.of(
                new HeaderField(":method", "GET"),
                new HeaderField(":path", "/bytes/1000"),
                new HeaderField("x-custom", "value"));
        byte[] encoded = FieldSectionEncoder.encode(fields);
        assertEquals("0000d1", HEX.formatHex(encoded, 0, 3)); // prefix 0,0 then indexed static 17
        assertEquals(fields, FieldSectionDecoder.decode(ByteBuffer.wrap(encoded)));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "required insert count 2 (RFC 9204 B.2)|03811011|Required Insert Count",
            "negative base|0080d1|negative",
            "indexed dynamic|000080|dynamic table",
            "literal with dynamic name reference|0000400161|dynamic table",
            "post-base indexed|000010|dynamic table",
            "post-base literal name reference|0000000161|dynamic table",
            "static index 99 out of range|0000ff24|out of range",
            "static name index 99 out of range|00005f5401 61|out of range",
            "value length beyond section|0000510b2f69|exceeds",
            "missing value|000051|missing",
            "missing base|00|Base",
            "truncated integer|0000ff|truncated",
            "empty section|''|missing",
            "integer longer than 62 bits|0000ffffffffffffffffffff01|62",
            "integer whose last 7 bits would wrap past 2^63 (found by fuzzing)|0000ffffffffffffffffff7f|2^62-1",
    })
    void refusesWithDecompressionFailed(String what, String hex, String messagePart) {
        QpackException e = assertThrows(QpackException.class, () -> decode(hex.replace(" ", "")));
        assertEquals(QpackError.QPACK_DECOMPRESSION_FAILED, e.error());
        assertTrue(e.getMessage().contains(messagePart), what + ": " + e.getMessage());
    }

    @Test
    void decodingDoesNotMoveTheCallersPosition() throws QpackException {
        ByteBuffer b = ByteBuffer.wrap(HEX.parseHex("0000d1"));
        FieldSectionDecoder.decode(b);
        assertEquals(0, b.position());
    }

    private static List<HeaderField> decode(String hex) throws QpackException {
        return FieldSectionDecoder.decode(ByteBuffer.wrap(HEX.parseHex(hex)));
    }
}
