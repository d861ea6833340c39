package org.pacelab.quic.content;

import java.net.URI;

/**
 * One resource to download: the authority (host and port, for HTTP/3's {@code :authority}) and the
 * request target (path and query, as sent on the wire).
 */
public record DownloadRequest(String authority, String target) {
    public DownloadRequest {
        if (target == null || !target.startsWith("/")) {
            throw new IllegalArgumentException("request target must start with '/': " + target);
        }
        for (int i = 0; i < target.length(); i++) {
            char c = target.charAt(i);
            if (c <= ' ' || c >= 0x7f) {
                throw new IllegalArgumentException("request target " + target + " has a space, control or"
                        + " non-ASCII char at index " + i + "; percent-encode it");
            }
        }
    }

    /**
     * The request for an {@code https://host[:port]/path[?query]} URL.
     *
     * @throws IllegalArgumentException naming the URL when it is not such a URL
     */
    public static DownloadRequest of(URI url) {
        if (!"https".equalsIgnoreCase(url.getScheme()) || url.getRawAuthority() == null || url.getHost() == null) {
            throw new IllegalArgumentException("URL " + url + " is not an https://host[:port]/path URL");
        }
        String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
        String target = url.getRawQuery() == null ? path : path + "?" + url.getRawQuery();
        String authority = url.getRawAuthority();
        int at = authority.lastIndexOf('@');
        return new DownloadRequest(at < 0 ? authority : authority.substring(at + 1), target);
    }

    /** The target's path without the query. */
    public String path() {
        int q = target.indexOf('?');
        return q < 0 ? target : target.substring(0, q);
    }
}
