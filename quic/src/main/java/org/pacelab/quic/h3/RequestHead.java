package org.pacelab.quic.h3;

import java.util.List;
import org.pacelab.quic.h3.qpack.HeaderField;
import org.pacelab.quic.content.Printable;

/** The control data of a request this server processes (RFC 9114 §4.3.1): a GET or HEAD with a path. */
record RequestHead(String method, String scheme, String authority, String path) {

    boolean isHead() {
        return method.equals("HEAD");
    }

    /**
     * Validates a request header section.
     *
     * @throws MalformedMessageException status 400 for a malformed request (RFC 9114 §4.1.2), 405 for a
     *                                   well-formed request with a method other than GET or HEAD
     */
    static RequestHead parse(List<HeaderField> fields) throws MalformedMessageException {
        String method = null;
        String scheme = null;
        String authority = null;
        String path = null;
        String host = null;
        boolean regularSeen = false;
        for (HeaderField f : fields) {
            if (!FieldRules.isPseudo(f)) {
                regularSeen = true;
                FieldRules.checkRegular(f);
                if (f.name().equals("host")) {
                    host = f.value();
                }
                continue;
            }
            if (regularSeen) {
                throw bad("pseudo-header field " + Printable.of(f.name())
                        + " follows a regular field (RFC 9114 §4.3)");
            }
            FieldRules.checkValue(f.name(), f.value());
            switch (f.name()) {
                case ":method" -> method = once(method, f);
                case ":scheme" -> scheme = once(scheme, f);
                case ":authority" -> authority = once(authority, f);
                case ":path" -> path = once(path, f);
                default -> throw bad("pseudo-header field " + Printable.of(f.name())
                        + " is not defined for requests; valid are :method, :scheme, :authority, :path"
                        + " (RFC 9114 §4.3.1)");
            }
        }
        if (method == null || method.isEmpty()) {
            throw bad("the request has no :method (RFC 9114 §4.3.1)");
        }
        if (method.equals("CONNECT")) {
            throw new MalformedMessageException(405, "CONNECT is not supported here; valid methods are GET and HEAD");
        }
        if (scheme == null || path == null || path.isEmpty()) {
            throw bad("the request lacks :scheme or a non-empty :path, which every non-CONNECT request has"
                    + " (RFC 9114 §4.3.1)");
        }
        if (!scheme.equals("https") && !scheme.equals("http")) {
            throw bad(":scheme '" + Printable.of(scheme) + "' is not served here; valid are https and http");
        }
        if ((authority == null || authority.isEmpty()) && (host == null || host.isEmpty())) {
            throw bad("the request has neither :authority nor host, which an " + scheme
                    + " request must have (RFC 9114 §4.3.1)");
        }
        if (authority != null && host != null && !authority.equals(host)) {
            throw bad(":authority '" + Printable.of(authority) + "' and host '" + Printable.of(host)
                    + "' differ (RFC 9114 §4.3.1)");
        }
        if (!method.equals("GET") && !method.equals("HEAD")) {
            throw new MalformedMessageException(405, "method " + Printable.of(method)
                    + " is not supported here; valid methods are GET and HEAD");
        }
        if (!path.startsWith("/")) {
            throw bad(":path '" + Printable.of(path) + "' is not an origin-form target starting with '/'");
        }
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c <= ' ' || c >= 0x7f) {
                throw bad(":path has the character 0x" + Integer.toHexString(c) + " at index " + i
                        + ", which must be percent-encoded (RFC 3986 §3.3)");
            }
        }
        return new RequestHead(method, scheme, authority != null ? authority : host, path);
    }

    private static String once(String previous, HeaderField f) throws MalformedMessageException {
        if (previous != null) {
            throw bad("pseudo-header field " + f.name() + " appears twice (RFC 9114 §4.3)");
        }
        return f.value();
    }

    private static MalformedMessageException bad(String reason) {
        return new MalformedMessageException(400, reason);
    }
}
