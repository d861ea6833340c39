package org.pacelab.lab.peer;

/** What a peer speaks; a server and a client must speak the same. */
public enum Protocol {
    H3("HTTP/3 over QUIC"),
    HTTP2_TLS("HTTP/2 over TLS over TCP");

    private final String description;

    Protocol(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }
}
