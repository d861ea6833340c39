package org.pacelab.analysis.quic;

import java.util.Arrays;

import org.pacelab.quic.packet.PacketType;

/** The QUIC packets of one datagram, as dissected (reused across datagrams). */
public final class DatagramInfo {
    private PacketType[] types = new PacketType[4];
    private long[] packetNumbers = new long[4];
    private int count;
    private QuicConnection connection;

    void clear() {
        count = 0;
        connection = null;
    }

    void add(PacketType type, long packetNumber) {
        if (count == types.length) {
            types = Arrays.copyOf(types, count * 2);
            packetNumbers = Arrays.copyOf(packetNumbers, count * 2);
        }
        types[count] = type;
        packetNumbers[count] = packetNumber;
        count++;
    }

    void connection(QuicConnection c) {
        connection = c;
    }

    /** QUIC packets found (coalesced packets one by one); 0 when the datagram is not QUIC. */
    public int count() {
        return count;
    }

    public PacketType type(int i) {
        return types[i];
    }

    /** Recovered packet number, or -1 when it could not be recovered (or the type has none). */
    public long packetNumber(int i) {
        return packetNumbers[i];
    }

    /** The connection the datagram belongs to, or null. */
    public QuicConnection connection() {
        return connection;
    }
}
