package org.pacelab.quic.hq;

import org.pacelab.quic.content.Printable;

/** The HTTP/0.9 request line {@code GET /path} (an optional trailing CR is part of the line ending). */
public final class HqRequestLine {
    /** The longest request line accepted. */
    public static final int MAX_LENGTH = 8192;

    private HqRequestLine() {
    }

    /**
     * The path of a request line (without its LF).
     *
     * @throws IllegalArgumentException with one sentence saying what is wrong
     */
    public static String parsePath(String line) {
        String l = line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
        if (!l.startsWith("GET ")) {
            throw new IllegalArgumentException("request line '" + Printable.of(l) + "' does not start with 'GET '");
        }
        String path = l.substring(4);
        if (path.isEmpty() || path.charAt(0) != '/') {
            throw new IllegalArgumentException("request path '" + Printable.of(path) + "' does not start with '/'");
        }
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c <= ' ' || c >= 0x7f) {
                throw new IllegalArgumentException("request path '" + Printable.of(path) + "' has the character 0x"
                        + Integer.toHexString(c) + " at index " + i + "; valid are printable ASCII without spaces");
            }
        }
        return path;
    }
}
