package org.pacelab.quic.content;

/**
 * Serves {@code /bytes/N}: N bytes of {@link BytePattern}, generated on the fly (no storage, N up to
 * 2^62-1, the largest DATA frame length). Every other target goes to the fallback source.
 */
public final class SyntheticContent implements ContentSource {
    /** The path prefix of synthetic bodies. */
    public static final String PREFIX = "/bytes/";
    /** The largest N: the largest value of a variable-length integer (RFC 9000 §16). */
    public static final long MAX_LENGTH = (1L << 62) - 1;

    private final ContentSource fallback;

    public SyntheticContent(ContentSource fallback) {
        this.fallback = fallback;
    }

    /** Only {@code /bytes/N}; everything else is 404. */
    public static SyntheticContent only() {
        return new SyntheticContent(target -> new Content.Refused(404, "no resource at " + target
                + " (this server only serves /bytes/N)"));
    }

    @Override
    public Content open(String target) {
        if (!target.startsWith(PREFIX)) {
            return fallback.open(target);
        }
        int query = target.indexOf('?');
        String digits = target.substring(PREFIX.length(), query < 0 ? target.length() : query);
        long n = parseLength(digits);
        if (n < 0) {
            return new Content.Refused(400, "in " + target + " the length after " + PREFIX
                    + " must be a decimal number of bytes from 0 to " + MAX_LENGTH);
        }
        return new Content.Found(new PatternBody(n));
    }

    /** The decimal value of {@code digits}, or -1 when it is empty, not all digits, or above the maximum. */
    private static long parseLength(String digits) {
        if (digits.isEmpty()) {
            return -1;
        }
        long n = 0;
        for (int i = 0; i < digits.length(); i++) {
            char c = digits.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            if (n > (MAX_LENGTH - (c - '0')) / 10) {
                return -1;
            }
            n = n * 10 + (c - '0');
        }
        return n;
    }
}
