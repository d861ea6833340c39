package org.pacelab.quic.hq;

/** The HTTP/0.9 request line {@code GET /path} (an optional trailing CR is part of the line ending). */
final class HqRequestLine {
    /** The longest request line accepted. */
    static final int MAX_LENGTH = 8192;

    private HqRequestLine() {
    }

    /**
     * The path of a request line (without its LF).
     *
     * @throws IllegalArgumentException with one sentence saying what is wrong
     */
    static String parsePath(String line) {
        String l = line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
        if (!l.startsWith("GET ")) {
            throw new IllegalArgumentException("request line '" + printable(l) + "' does not start with 'GET '");
        }
        String path = l.substring(4);
        if (path.isEmpty() || path.charAt(0) != '/') {
            throw new IllegalArgumentException("request path '" + printable(path) + "' does not start with '/'");
        }
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c <= ' ' || c >= 0x7f) {
                throw new IllegalArgumentException("request path '" + printable(path) + "' has the character 0x"
                        + Integer.toHexString(c) + " at index " + i + "; valid are printable ASCII without spaces");
            }
        }
        return path;
    }

    static String printable(String s) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.length() && i < 100; i++) {
            char c = s.charAt(i);
            sb.append(c < 0x20 || c >= 0x7f ? String.format("\\x%02x", (int) c) : String.valueOf(c));
        }
        return s.length() > 100 ? sb + "..." : sb.toString();
    }
}
