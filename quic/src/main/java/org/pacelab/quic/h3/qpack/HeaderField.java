package org.pacelab.quic.h3.qpack;

/**
 * One field line: a name and a value. HTTP field names and values are octet strings; they are held here
 * as Strings whose chars are the octets (ISO-8859-1), so every octet sequence round-trips unchanged.
 */
public record HeaderField(String name, String value) {
    public HeaderField {
        requireOctets(name, "name");
        requireOctets(value, "value");
    }

    private static void requireOctets(String s, String what) {
        if (s == null) {
            throw new IllegalArgumentException("field " + what + " must not be null");
        }
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) > 0xff) {
                throw new IllegalArgumentException("field " + what + " has a char above 0xff at index " + i
                        + "; field lines carry octets (use ISO-8859-1 text or percent-encoding)");
            }
        }
    }

    /** The size of this field in the sense of RFC 9204 §3.2.1 and RFC 9114 §4.2.2: octets + 32. */
    public long size() {
        return name.length() + value.length() + 32L;
    }
}
