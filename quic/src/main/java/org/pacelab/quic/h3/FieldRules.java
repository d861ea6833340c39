package org.pacelab.quic.h3;

import java.util.List;
import java.util.Set;
import org.pacelab.quic.h3.qpack.HeaderField;
import org.pacelab.quic.content.Printable;

/** Checks on field lines that HTTP/3 requires of every message (RFC 9114 §4.2, RFC 9110 §5.1 and §5.5). */
final class FieldRules {
    /** Fields specific to one HTTP/1.1 connection, forbidden in HTTP/3 (RFC 9114 §4.2). */
    private static final Set<String> CONNECTION_SPECIFIC = Set.of(
            "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade");

    private FieldRules() {
    }

    static boolean isPseudo(HeaderField f) {
        return f.name().startsWith(":");
    }

    /**
     * Checks a regular (non-pseudo) field line.
     *
     * @throws MalformedMessageException with status 400, naming the field
     */
    static void checkRegular(HeaderField f) throws MalformedMessageException {
        String name = f.name();
        if (name.isEmpty()) {
            throw new MalformedMessageException(400, "a field has an empty name");
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c >= 'A' && c <= 'Z') {
                throw new MalformedMessageException(400, "field name '" + Printable.of(name)
                        + "' has upper-case characters; HTTP/3 field names are lower case (RFC 9114 §4.2)");
            }
            if (!isTokenChar(c)) {
                throw new MalformedMessageException(400, "field name '" + Printable.of(name)
                        + "' has the character 0x" + Integer.toHexString(c) + ", which is not a token character"
                        + " (RFC 9110 §5.1)");
            }
        }
        if (CONNECTION_SPECIFIC.contains(name)) {
            throw new MalformedMessageException(400, "connection-specific field '" + name
                    + "' is not allowed in HTTP/3 (RFC 9114 §4.2)");
        }
        if (name.equals("te") && !f.value().equals("trailers")) {
            throw new MalformedMessageException(400, "field 'te' may only have the value 'trailers' (RFC 9114 §4.2)");
        }
        checkValue(name, f.value());
    }

    /** Field values: no control characters but HTAB, no leading or trailing whitespace (RFC 9110 §5.5). */
    static void checkValue(String name, String value) throws MalformedMessageException {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if ((c < 0x20 && c != '\t') || c == 0x7f) {
                throw new MalformedMessageException(400, "value of field '" + Printable.of(name)
                        + "' has the control character 0x" + Integer.toHexString(c) + " at index " + i
                        + " (RFC 9110 §5.5)");
            }
        }
        if (!value.isEmpty() && (isWhitespace(value.charAt(0)) || isWhitespace(value.charAt(value.length() - 1)))) {
            throw new MalformedMessageException(400, "value of field '" + Printable.of(name)
                    + "' starts or ends with whitespace (RFC 9110 §5.5)");
        }
    }

    /** Trailer sections carry no pseudo-header fields (RFC 9114 §4.3). */
    static void checkTrailers(List<HeaderField> fields) throws MalformedMessageException {
        for (HeaderField f : fields) {
            if (isPseudo(f)) {
                throw new MalformedMessageException(400, "trailer section has pseudo-header field '"
                        + Printable.of(f.name()) + "' (RFC 9114 §4.3)");
            }
            checkRegular(f);
        }
    }

    /**
     * The value of the content-length fields, -1 when there is none.
     *
     * @throws MalformedMessageException when a value is not a decimal number or values disagree
     */
    static long contentLength(List<HeaderField> fields) throws MalformedMessageException {
        long length = -1;
        for (HeaderField f : fields) {
            if (!f.name().equals("content-length")) {
                continue;
            }
            long v = parseDecimal(f.value());
            if (v < 0) {
                throw new MalformedMessageException(400, "content-length '" + Printable.of(f.value())
                        + "' is not a decimal number of bytes (RFC 9110 §8.6)");
            }
            if (length >= 0 && v != length) {
                throw new MalformedMessageException(400, "content-length fields disagree: " + length + " and " + v);
            }
            length = v;
        }
        return length;
    }

    /** The value of a non-empty all-digit string below 2^63, else -1. */
    static long parseDecimal(String s) {
        if (s.isEmpty() || s.length() > 18) {
            return -1;
        }
        long v = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }

    private static boolean isWhitespace(char c) {
        return c == ' ' || c == '\t';
    }

    /** tchar, RFC 9110 §5.6.2. */
    private static boolean isTokenChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
    }
}
