package org.pacelab.quic.h3.qpack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HuffmanTest {
    private static final HexFormat HEX = HexFormat.of();

    @Test
    void tableIsACompletePrefixCode() {
        // Kraft: sum of 2^-len over all 257 symbols is exactly 1 for a complete code.
        BigInteger sum = BigInteger.ZERO;
        Set<String> codes = new HashSet<>();
        for (int sym = 0; sym <= Huffman.EOS; sym++) {
            int len = Huffman.length(sym);
            assertTrue(len >= 5 && len <= 30, "length of symbol " + sym);
            assertTrue(Huffman.code(sym) >>> len == 0, "code of symbol " + sym + " fits its length");
            sum = sum.add(BigInteger.ONE.shiftLeft(30 - len));
            codes.add(len + ":" + Huffman.code(sym));
        }
        assertEquals(BigInteger.ONE.shiftLeft(30), sum);
        assertEquals(257, codes.size());
        assertEquals(0x3fffffff, Huffman.code(Huffman.EOS));
        assertEquals(30, Huffman.length(Huffman.EOS));
    }

    /** RFC 7541 Appendix C.4 and C.6 Huffman-coded strings. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "www.example.com|f1e3c2e5f23a6ba0ab90f4ff",
            "no-cache|a8eb10649cbf",
            "custom-key|25a849e95ba97d7f",
            "custom-value|25a849e95bb8e8b4bf",
            "302|6402",
            "private|aec3771a4b",
            "Mon, 21 Oct 2013 20:13:21 GMT|d07abe941054d444a8200595040b8166e082a62d1bff",
            "https://www.example.com|9d29ad171863c78f0b97c8e9ae82ae43d3",
    })
    void rfc7541Examples(String text, String hex) throws QpackException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Huffman.encode(text, out);
        assertEquals(hex, HEX.formatHex(out.toByteArray()));
        assertEquals(hex.length() / 2, Huffman.encodedLength(text));
        assertEquals(text, decode(HEX.parseHex(hex)));
    }

    @Test
    void everyOctetRoundTrips() throws QpackException {
        StringBuilder all = new StringBuilder();
        for (int c = 0; c < 256; c++) {
            all.append((char) c);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Huffman.encode(all.toString(), out);
        assertEquals(all.toString(), decode(out.toByteArray()));
    }

    @Test
    void rejectsEosPaddingTooLongAndNonOnePadding() {
        // EOS (30 ones) followed by two padding ones: the decoder must refuse the EOS symbol.
        assertFailure(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff}, "EOS");
        // 'a' (00011) then 11 ones: 8 bits of padding.
        assertFailure(new byte[] {(byte) 0x1f, (byte) 0xff}, "padding");
        // 'a' (00011) then 000: padding not all ones.
        assertFailure(new byte[] {(byte) 0x18}, "not all ones");
    }

    private static void assertFailure(byte[] bytes, String messagePart) {
        QpackException e = assertThrows(QpackException.class, () -> decode(bytes));
        assertEquals(QpackError.QPACK_DECOMPRESSION_FAILED, e.error());
        assertTrue(e.getMessage().contains(messagePart), e.getMessage());
    }

    private static String decode(byte[] bytes) throws QpackException {
        StringBuilder sb = new StringBuilder();
        Huffman.decode(ByteBuffer.wrap(bytes), bytes.length, sb, 0);
        return sb.toString();
    }
}
