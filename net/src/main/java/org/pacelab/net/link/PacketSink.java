package org.pacelab.net.link;

/** Receives the packets a link direction delivers, with their delivery time in nanoseconds. */
@FunctionalInterface
public interface PacketSink {
    void deliver(Packet packet, long time);
}
