package org.pacelab.quic.frame;

/**
 * The fields of a STREAM frame (RFC 9000 §19.8) before its data: what the receive path decodes so that the data can
 * be copied from the packet straight into the stream's buffer, without a {@link StreamFrame}'s array in between. The
 * data is the {@code length} bytes that follow the header in the packet.
 */
public record StreamFrameHeader(long streamId, long offset, int length, boolean fin) {
    /** The frame with its data copied out of the packet (for the qlog, and the decoder of whole frames). */
    public StreamFrame withData(byte[] data) {
        return new StreamFrame(streamId, offset, data, fin);
    }
}
