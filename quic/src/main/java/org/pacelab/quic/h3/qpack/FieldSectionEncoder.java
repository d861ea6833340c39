package org.pacelab.quic.h3.qpack;

import java.io.ByteArrayOutputStream;
import java.util.List;

/**
 * Encodes field sections without the dynamic table (RFC 9204 §4.5): the prefix is always Required Insert
 * Count 0 and Base 0, so the peer's decoder never blocks and no encoder-stream instruction is ever needed.
 * Each field line is a static-table reference when name and value match an entry, a literal with a static
 * name reference when only the name matches, else a literal with a literal name; every string is Huffman
 * coded when that is shorter (RFC 9204 §4.1.2).
 */
public final class FieldSectionEncoder {
    private FieldSectionEncoder() {
    }

    /** The encoded field section for these field lines, in order. */
    public static byte[] encode(List<HeaderField> fields) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(16 + 16 * fields.size());
        out.write(0x00); // Required Insert Count = 0 (§4.5.1.1)
        out.write(0x00); // Sign = 0, Delta Base = 0 (§4.5.1.2)
        for (HeaderField field : fields) {
            int index = StaticTable.indexOf(field);
            if (index >= 0) {
                PrefixedInteger.write(out, 0xc0, 6, index); // Indexed Field Line, T=1 (§4.5.2)
                continue;
            }
            int nameIndex = StaticTable.indexOfName(field.name());
            if (nameIndex >= 0) {
                PrefixedInteger.write(out, 0x50, 4, nameIndex); // Literal with Name Reference, N=0, T=1 (§4.5.4)
            } else {
                writeString(out, 0x20, 3, field.name()); // Literal with Literal Name, N=0 (§4.5.6)
            }
            writeString(out, 0x00, 7, field.value());
        }
        return out.toByteArray();
    }

    /** A string literal (§4.1.2): the H bit sits just above the length prefix. */
    private static void writeString(ByteArrayOutputStream out, int flags, int prefixBits, String s) {
        int huffmanLength = Huffman.encodedLength(s);
        if (huffmanLength < s.length()) {
            PrefixedInteger.write(out, flags | (1 << prefixBits), prefixBits, huffmanLength);
            Huffman.encode(s, out);
        } else {
            PrefixedInteger.write(out, flags, prefixBits, s.length());
            for (int i = 0; i < s.length(); i++) {
                out.write(s.charAt(i));
            }
        }
    }
}
