package org.pacelab.quic.wire;

import java.util.HexFormat;

/** Small byte-array helpers shared by the wire codecs. */
public final class Bytes {
    private static final HexFormat HEX = HexFormat.of();
    private static final int SHOWN = 32;

    private Bytes() {
    }

    /** Lower-case hex of the whole array. */
    public static String hex(byte[] b) {
        return HEX.formatHex(b);
    }

    /** Hex of at most the first 32 bytes, followed by the count of the ones left out, for toString. */
    public static String shortHex(byte[] b) {
        if (b.length <= SHOWN) {
            return HEX.formatHex(b);
        }
        return HEX.formatHex(b, 0, SHOWN) + "…(" + b.length + " bytes)";
    }

    /** Parses hex (for tests and configuration); whitespace is ignored. */
    public static byte[] fromHex(String s) {
        return HEX.parseHex(s.replaceAll("\\s+", ""));
    }

    /** Compares two arrays in time that depends only on their lengths (RFC 9000 §10.3.1). */
    public static boolean constantTimeEquals(byte[] a, int aOffset, byte[] b, int bOffset, int length) {
        int diff = 0;
        for (int i = 0; i < length; i++) {
            diff |= a[aOffset + i] ^ b[bOffset + i];
        }
        return diff == 0;
    }
}
