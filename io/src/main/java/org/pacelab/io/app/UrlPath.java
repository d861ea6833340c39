package org.pacelab.io.app;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.pacelab.quic.content.Printable;

/** Splitting a URL path into percent-decoded segments (RFC 3986 §2.1, §3.3) and judging them as file names. */
final class UrlPath {
    private UrlPath() {
    }

    /** A path that cannot be decoded: a bad percent-escape or bytes that are not UTF-8. */
    static final class MalformedPathException extends Exception {
        MalformedPathException(String message) {
            super(message);
        }
    }

    /** The path part of a request target: everything before the first {@code ?}. */
    static String withoutQuery(String target) {
        int q = target.indexOf('?');
        return q < 0 ? target : target.substring(0, q);
    }

    /**
     * The percent-decoded segments of an absolute path, empty segments (from {@code //} or a trailing
     * {@code /}) dropped. A decoded segment may contain {@code /}, {@code \} or NUL: callers judge it.
     */
    static List<String> decodedSegments(String path) throws MalformedPathException {
        List<String> segments = new ArrayList<>();
        for (String raw : path.split("/", -1)) {
            if (!raw.isEmpty()) {
                segments.add(decode(raw));
            }
        }
        return segments;
    }

    /** Percent-decodes one segment as UTF-8. */
    static String decode(String raw) throws MalformedPathException {
        if (raw.indexOf('%') < 0) {
            return raw;
        }
        ByteBuffer bytes = ByteBuffer.allocate(raw.length() * 4);
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c != '%') {
                bytes.put(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
                continue;
            }
            if (i + 2 >= raw.length() || Character.digit(raw.charAt(i + 1), 16) < 0
                    || Character.digit(raw.charAt(i + 2), 16) < 0) {
                throw new MalformedPathException("'" + Printable.of(raw) + "' has a '%' at index " + i
                        + " that is not followed by two hex digits (RFC 3986 §2.1)");
            }
            bytes.put((byte) Integer.parseInt(raw.substring(i + 1, i + 3), 16));
            i += 2;
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(bytes.flip()).toString();
        } catch (CharacterCodingException e) {
            throw new MalformedPathException("'" + Printable.of(raw) + "' does not decode to UTF-8 text");
        }
    }

    /**
     * Why a decoded segment cannot be a file name inside a directory, or null when it can: empty,
     * {@code .} or {@code ..}, or containing a separator ({@code /}, {@code \}) or NUL.
     */
    static String unsafeNameReason(String segment) {
        if (segment.isEmpty()) {
            return "is empty";
        }
        if (segment.equals(".") || segment.equals("..")) {
            return "is '" + segment + "', which refers to a directory, not a file in it";
        }
        if (segment.indexOf('/') >= 0 || segment.indexOf('\\') >= 0) {
            return "contains a path separator ('/' or '\\'), possibly percent-encoded";
        }
        if (segment.indexOf('\0') >= 0) {
            return "contains a NUL character";
        }
        return null;
    }
}
