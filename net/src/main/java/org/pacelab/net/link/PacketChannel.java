package org.pacelab.net.link;

/**
 * One direction between the server and the client as a driver sees it: a clock-free discrete-event component that
 * accepts packets at their arrival time and delivers them later. {@link LinkDirection} is the single-path model;
 * the dual-connectivity downlink ({@code org.pacelab.net.dc.DualConnectivityDownlink}) splits packets over two
 * paths and reorders them again. Times are nanoseconds on the driver's clock and must never go backwards.
 */
public interface PacketChannel {
    /** A packet arrives (the sender emitted it) at {@code time}; deliveries due before it must be drained first. */
    void offer(Packet packet, long time);

    /** The earliest time at which something inside happens, or {@link Long#MAX_VALUE} when idle. */
    long nextEventTime();

    /** Processes every internal event due at or before {@code time}, delivering packets to {@code out}. */
    void advanceTo(long time, PacketSink out);

    /** Packets anywhere inside (bounds a front-end's memory). */
    int packetsInside();
}
