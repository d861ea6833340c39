package org.pacelab.lab.interop;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The QUIC packets of a tap in capture order, with the queries the QUIC Interop Runner's checks make of its traces
 * ({@code trace.py}: Initial, Handshake, Retry, 0-RTT and 1-RTT packets by direction).
 *
 * @param packets        every QUIC packet, coalesced ones in their datagram's order
 * @param decryptionFailed whether Wireshark could not decrypt some packet with the key log
 */
public record Trace(List<QuicPacket> packets, boolean decryptionFailed) {
    public Trace {
        packets = List.copyOf(packets);
    }

    /** Which packets to take: from the client, from the server, or both. */
    public enum Direction {
        ALL, FROM_CLIENT, FROM_SERVER;

        boolean matches(QuicPacket p) {
            return this == ALL || (this == FROM_SERVER) == p.fromServer();
        }
    }

    public List<QuicPacket> of(QuicPacket.Type type, Direction d) {
        return select(p -> p.type() == type && d.matches(p));
    }

    public List<QuicPacket> initial(Direction d) {
        return of(QuicPacket.Type.INITIAL, d);
    }

    public List<QuicPacket> handshake(Direction d) {
        return of(QuicPacket.Type.HANDSHAKE, d);
    }

    public List<QuicPacket> retry() {
        return of(QuicPacket.Type.RETRY, Direction.ALL);
    }

    public List<QuicPacket> zeroRtt() {
        return of(QuicPacket.Type.ZERO_RTT, Direction.FROM_CLIENT);
    }

    public List<QuicPacket> oneRtt(Direction d) {
        return of(QuicPacket.Type.ONE_RTT, d);
    }

    public List<QuicPacket> all(Direction d) {
        return select(d::matches);
    }

    /** Packets of one direction, one per datagram (the first QUIC packet in it), as the runner's per-frame checks see them. */
    public List<QuicPacket> datagrams(Direction d) {
        Set<Integer> seen = new java.util.HashSet<>();
        return select(p -> d.matches(p) && seen.add(p.datagram().frame()));
    }

    public List<QuicPacket> select(Predicate<QuicPacket> which) {
        return packets.stream().filter(which).toList();
    }

    /** The distinct values of a field over some packets, in first-seen order. */
    public static Set<String> distinct(List<QuicPacket> packets, String field) {
        Set<String> out = new LinkedHashSet<>();
        for (QuicPacket p : packets) {
            String v = p.first(field);
            if (v != null) {
                out.add(v);
            }
        }
        return out;
    }
}
