package org.pacelab.analysis.flow;

import org.pacelab.analysis.packet.DecodedPacket;
import org.pacelab.analysis.packet.Endpoint;

/**
 * The server's endpoint and transport, and how they were found. Packets from it are "server to client",
 * packets to it "client to server"; the rest of the capture is ignored.
 *
 * @param endpoint  server address and port
 * @param transport {@link DecodedPacket#UDP} or {@link DecodedPacket#TCP}
 * @param method    how the server was identified
 */
public record ServerSide(Endpoint endpoint, int transport, Method method) {

    /** How the server was identified. */
    public enum Method {
        /** the first endpoint seen with the port given by --server-port */
        SERVER_PORT_OPTION("server_port_option"),
        /** the side that answered the first client Initial with an Initial (QUIC) */
        INITIAL_RESPONSE("initial_response"),
        /** the destination of the first client Initial, when no answer was captured (QUIC) */
        CLIENT_INITIAL("client_initial"),
        /** the side that sent SYN+ACK (TCP) */
        SYN_ACK("syn_ack"),
        /** no handshake captured: the endpoint that sent the most payload bytes */
        MOST_BYTES_SENT("most_bytes_sent");

        private final String jsonName;

        Method(String jsonName) {
            this.jsonName = jsonName;
        }

        public String jsonName() {
            return jsonName;
        }
    }

    public boolean isQuic() {
        return transport == DecodedPacket.UDP;
    }

    /** True when the packet (of the server's transport) comes from the server. */
    public boolean fromServer(DecodedPacket p) {
        return p.transport() == transport && endpoint.isSourceOf(p);
    }

    /** True when the packet (of the server's transport) goes to the server. */
    public boolean toServer(DecodedPacket p) {
        return p.transport() == transport && endpoint.isDestinationOf(p);
    }
}
