package org.pacelab.net.link;

import java.nio.ByteBuffer;

/**
 * A packet crossing the link model.
 *
 * @param id      identifier chosen by the driver (shown in the event log; a duplicate keeps its original's id)
 * @param flow    flow identifier (one per 5-tuple); several flows may share one direction
 * @param size    size in bytes that the link charges for (the IP packet length; stage overheads are added by
 *                the stages themselves)
 * @param payload opaque bytes carried along (the driver's datagram or IP packet); may be {@code null} when a
 *                driver needs only sizes. The model reads it only to corrupt a copy.
 * @param trafficClass the IP traffic class (TOS) byte the sender set, whose low two bits are the ECN codepoint
 *                (RFC 3168); the relay reads it from the kernel and sets it again on the datagram it forwards
 */
public record Packet(long id, int flow, int size, ByteBuffer payload, int trafficClass) {
    public Packet {
        if (size <= 0) throw new IllegalArgumentException("packet size must be positive, got " + size);
    }

    /** A packet with traffic class 0 (not ECN-capable). */
    public Packet(long id, int flow, int size, ByteBuffer payload) {
        this(id, flow, size, payload, 0);
    }

    /** A copy of this packet whose payload is {@code newPayload}. */
    public Packet withPayload(ByteBuffer newPayload) {
        return new Packet(id, flow, size, newPayload, trafficClass);
    }
}
