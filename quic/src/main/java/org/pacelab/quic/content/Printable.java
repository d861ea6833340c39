package org.pacelab.quic.content;

/** Untrusted text made safe for one-line error messages: control characters escaped, length capped. */
public final class Printable {
    private static final int MAX_CHARS = 100;

    private Printable() {
    }

    /** {@code s} with C0/C1 control characters and DEL as {@code \xNN}, cut after 100 chars with "...". */
    public static String of(String s) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.length() && i < MAX_CHARS; i++) {
            char c = s.charAt(i);
            if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
                sb.append(String.format("\\x%02x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return s.length() > MAX_CHARS ? sb + "..." : sb.toString();
    }
}
