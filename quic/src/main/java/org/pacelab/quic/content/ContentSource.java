package org.pacelab.quic.content;

/** Resolves request targets to bodies, for the HTTP/3 and hq-interop servers. Called on the connection's thread. */
public interface ContentSource {
    /**
     * Looks up a request target exactly as received: an origin-form path such as {@code /dir/file.bin},
     * possibly with percent-encoding and a {@code ?query}. Never throws for bad input: malformed or
     * hostile targets (traversal, encoded separators, NUL) are {@link Content.Refused refused}.
     */
    Content open(String target);
}
