package org.pacelab.quic.conn;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;

/**
 * Packets that arrived before the keys to open them (RFC 9001 §4.1.4: a reordered Handshake or 1-RTT packet, or 0-RTT
 * packets overtaking the Initial whose ClientHello gives their keys, §5.7), kept as copies, oldest first, at most
 * {@link #CAPACITY}; {@link PacketReceiver} offers them again whenever new keys may have arrived.
 */
final class PacketsAwaitingKeys {
    /** Packets that arrive before their keys are kept this many at most (RFC 9001 §4.1.4). */
    static final int CAPACITY = 16;

    private final ArrayDeque<byte[]> packets = new ArrayDeque<>();

    /** Whether another packet fits. */
    boolean hasRoom() {
        return packets.size() < CAPACITY;
    }

    /** Keeps a copy of the packet between {@code start} and {@code end} of the datagram. */
    void add(ByteBuffer datagram, int start, int end) {
        byte[] copy = new byte[end - start];
        datagram.get(start, copy);
        packets.add(copy);
    }

    /** Keeps a packet taken by {@link #poll} for later again. */
    void putBack(byte[] packet) {
        packets.add(packet);
    }

    boolean isEmpty() {
        return packets.isEmpty();
    }

    int size() {
        return packets.size();
    }

    /** The oldest packet, removed; null when none is left. */
    byte[] poll() {
        return packets.poll();
    }
}
