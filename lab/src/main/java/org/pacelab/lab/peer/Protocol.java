package org.pacelab.lab.peer;

import java.util.List;

/**
 * What a peer speaks. A server and a client run together in the first protocol of the server's (its preference
 * order) that the client speaks too.
 */
public enum Protocol {
    H3("HTTP/3 over QUIC", "h3"),
    HQ_INTEROP("HTTP/0.9 over QUIC (hq-interop)", "hq-interop"),
    HTTP2_TLS("HTTP/2 over TLS over TCP", null);

    private final String description;
    private final String alpn;

    Protocol(String description, String alpn) {
        this.description = description;
        this.alpn = alpn;
    }

    public String description() {
        return description;
    }

    /** The QUIC ALPN token, or null for TCP. */
    public String alpn() {
        return alpn;
    }

    /** Whether it runs over QUIC (UDP), which the relay carries. */
    public boolean overQuic() {
        return alpn != null;
    }

    /** The first of the server's protocols that the client speaks too, or null when they have none in common. */
    public static Protocol common(List<Protocol> server, List<Protocol> client) {
        return server.stream().filter(client::contains).findFirst().orElse(null);
    }

    /** "HTTP/3 over QUIC or HTTP/0.9 over QUIC (hq-interop)". */
    public static String describe(List<Protocol> protocols) {
        return String.join(" or ", protocols.stream().map(Protocol::description).toList());
    }
}
