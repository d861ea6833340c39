package org.pacelab.quic.packet;

import org.pacelab.quic.QuicException;
import org.pacelab.quic.TransportError;

/**
 * A packet whose header cannot be parsed. RFC 9000 §12.2 and §17: such packets are discarded, not
 * answered with a connection error; the rest of the datagram is dropped too, because the packet's end
 * is unknown. Extends {@link QuicException} (code PROTOCOL_VIOLATION) so callers that only catch
 * QuicException still never see an unchecked exception.
 */
public final class MalformedPacketException extends QuicException {
    private final int offset;

    public MalformedPacketException(int offset, String reason) {
        super(TransportError.PROTOCOL_VIOLATION, 0, "malformed packet at byte offset " + offset + " of the datagram: " + reason);
        this.offset = offset;
    }

    /** The offset in the datagram of the packet that failed to parse. */
    public int offset() { return offset; }
}
