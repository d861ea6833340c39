package org.pacelab.lab.interop;

import java.util.List;
import java.util.Map;

/**
 * One QUIC packet as Wireshark dissected it from the tap (a datagram may hold several, coalesced), with the datagram
 * it came in. Fields keep tshark's names (e.g. {@code quic.scid}, {@code tls.handshake.type},
 * {@code quic.path_challenge.data}); every occurrence inside the packet is kept, in order, so a check asks whether a
 * field is present, for its first value, or for all of them — what the QUIC Interop Runner's checks ask of pyshark.
 *
 * @param datagram the UDP datagram carrying it
 * @param type     what kind of packet it is
 * @param fields   every field of the packet's dissection, by name
 */
public record QuicPacket(Datagram datagram, Type type, Map<String, List<String>> fields) {
    /** Packet kinds, for QUIC v1 and v2 alike. */
    public enum Type { INITIAL, ZERO_RTT, HANDSHAKE, RETRY, ONE_RTT, VERSION_NEGOTIATION, INVALID }

    /** QUIC version 1 (RFC 9000) as tshark writes it. */
    public static final long V1 = 0x1L;
    /** QUIC version 2 (RFC 9369). */
    public static final long V2 = 0x6b3343cfL;

    /**
     * The UDP datagram a packet came in, as captured.
     *
     * @param frame      capture frame number (1-based)
     * @param timeNs     capture time, ns since the epoch
     * @param fromServer sent by the server (its address and port are the datagram's source)
     * @param ecn        the IP ECN field (0 Not-ECT, 1 ECT(1), 2 ECT(0), 3 CE)
     * @param udpLength  the UDP length field (payload + 8)
     */
    public record Datagram(int frame, long timeNs, boolean fromServer, boolean ipv6, String source, int sourcePort,
                           String destination, int destinationPort, int ecn, int udpLength) {
        /** The path of the datagram: its two addresses and ports, in the order sent. */
        public String path() {
            return source + ":" + sourcePort + " -> " + destination + ":" + destinationPort;
        }
    }

    public boolean has(String field) {
        return fields.containsKey(field);
    }

    /** The field's first value, or null. */
    public String first(String field) {
        List<String> v = fields.get(field);
        return v == null || v.isEmpty() ? null : v.getFirst();
    }

    public List<String> all(String field) {
        return fields.getOrDefault(field, List.of());
    }

    /** The QUIC version of a long-header packet (0 for Version Negotiation, -1 for a short header). */
    public long version() {
        String v = first("quic.version");
        return v == null ? -1 : Long.decode(v);
    }

    public boolean fromServer() {
        return datagram.fromServer();
    }

    /** Bytes of payload as Wireshark counts them: the decrypted payload, or what is left protected. */
    public int payloadBytes() {
        for (String f : List.of("quic.payload", "quic.remaining_payload", "quic.protected_payload")) {
            String v = first(f);
            if (v != null) {
                return v.isEmpty() ? 0 : (v.length() + 1) / 3;
            }
        }
        return 0;
    }
}
