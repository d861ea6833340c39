package org.pacelab.quic.h3.qpack;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Decodes encoded field sections (RFC 9204 §4.5) for an endpoint that advertised a dynamic table
 * capacity of 0 (SETTINGS_QPACK_MAX_TABLE_CAPACITY = 0): static-table references, literals with a static
 * name reference and literals with a literal name are accepted, plain or Huffman coded; anything that
 * needs the dynamic table (a non-zero Required Insert Count, a dynamic or post-base reference) cannot be
 * valid and is refused with QPACK_DECOMPRESSION_FAILED (§2.2.3, §4.5.1.1).
 */
public final class FieldSectionDecoder {
    private static final QpackError FAILED = QpackError.QPACK_DECOMPRESSION_FAILED;

    private FieldSectionDecoder() {
    }

    /**
     * Decodes the whole remaining content of {@code section}.
     *
     * @throws QpackException QPACK_DECOMPRESSION_FAILED naming the byte offset within the section
     */
    public static List<HeaderField> decode(ByteBuffer section) throws QpackException {
        ByteBuffer in = section.slice();
        int start = 0;
        long requiredInsertCount = PrefixedInteger.read(in, 8, start, FAILED, "Required Insert Count");
        if (requiredInsertCount != 0) {
            throw new QpackException(FAILED, "field section byte 0: encoded Required Insert Count is "
                    + requiredInsertCount + " but our dynamic table capacity is 0, so only 0 is valid"
                    + " (RFC 9204 §4.5.1.1)");
        }
        if (!in.hasRemaining()) {
            throw new QpackException(FAILED, "field section byte 1: the Base field is missing");
        }
        boolean negative = (in.get(in.position()) & 0x80) != 0;
        long deltaBase = PrefixedInteger.read(in, 7, start, FAILED, "Delta Base");
        if (negative) {
            throw new QpackException(FAILED, "field section byte 1: Sign bit 1 with Delta Base " + deltaBase
                    + " makes Base negative when Required Insert Count is 0 (RFC 9204 §4.5.1.2)");
        }
        List<HeaderField> fields = new ArrayList<>();
        while (in.hasRemaining()) {
            fields.add(readFieldLine(in, start));
        }
        return fields;
    }

    private static HeaderField readFieldLine(ByteBuffer in, int start) throws QpackException {
        int at = in.position() - start;
        int first = in.get(in.position()) & 0xff;
        if ((first & 0x80) != 0) { // 1T: Indexed Field Line (§4.5.2)
            boolean isStatic = (first & 0x40) != 0;
            long index = PrefixedInteger.read(in, 6, start, FAILED, "indexed field line index");
            if (!isStatic) {
                throw dynamicReference(at, "an indexed field line", index);
            }
            return StaticTable.get(staticIndex(index, at));
        }
        if ((first & 0x40) != 0) { // 01NT: Literal Field Line with Name Reference (§4.5.4)
            boolean isStatic = (first & 0x10) != 0;
            long index = PrefixedInteger.read(in, 4, start, FAILED, "literal field line name index");
            if (!isStatic) {
                throw dynamicReference(at, "a literal field line's name", index);
            }
            String name = StaticTable.get(staticIndex(index, at)).name();
            return new HeaderField(name, readString(in, 7, start, "field value"));
        }
        if ((first & 0x20) != 0) { // 001N: Literal Field Line with Literal Name (§4.5.6)
            String name = readString(in, 3, start, "field name");
            return new HeaderField(name, readString(in, 7, start, "field value"));
        }
        if ((first & 0x10) != 0) { // 0001: Indexed Field Line with Post-Base Index (§4.5.3)
            long index = PrefixedInteger.read(in, 4, start, FAILED, "post-base index");
            throw dynamicReference(at, "an indexed field line with post-base index", index);
        }
        // 0000N: Literal Field Line with Post-Base Name Reference (§4.5.5)
        long index = PrefixedInteger.read(in, 3, start, FAILED, "post-base name index");
        throw dynamicReference(at, "a literal field line with post-base name reference", index);
    }

    private static int staticIndex(long index, int at) throws QpackException {
        if (index >= StaticTable.size()) {
            throw new QpackException(FAILED, "field section byte " + at + ": static table index " + index
                    + " is out of range 0.." + (StaticTable.size() - 1) + " (RFC 9204 Appendix A)");
        }
        return (int) index;
    }

    private static QpackException dynamicReference(int at, String what, long index) {
        return new QpackException(FAILED, "field section byte " + at + ": " + what + " refers to dynamic table"
                + " entry " + index + ", but the dynamic table is empty because we advertised capacity 0"
                + " (RFC 9204 §2.2.3)");
    }

    /** A string literal (§4.1.2) whose H flag is the bit just above the {@code prefixBits}-bit length. */
    private static String readString(ByteBuffer in, int prefixBits, int start, String what) throws QpackException {
        int at = in.position() - start;
        if (!in.hasRemaining()) {
            throw new QpackException(FAILED, "field section byte " + at + ": " + what + " is missing");
        }
        boolean huffman = (in.get(in.position()) & (1 << prefixBits)) != 0;
        long length = PrefixedInteger.read(in, prefixBits, start, FAILED, what + " length");
        if (length > in.remaining()) {
            throw new QpackException(FAILED, "field section byte " + at + ": " + what + " length " + length
                    + " exceeds the " + in.remaining() + " bytes left in the section");
        }
        int n = (int) length;
        if (huffman) {
            StringBuilder sb = new StringBuilder(n + (n >>> 1));
            Huffman.decode(in, n, sb, start);
            return sb.toString();
        }
        char[] chars = new char[n];
        for (int i = 0; i < n; i++) {
            chars[i] = (char) (in.get() & 0xff);
        }
        return new String(chars);
    }
}
