package org.pacelab.quic.stream;

/**
 * Local stream and flow-control settings: what this endpoint advertises and how much it buffers.
 *
 * @param initialMaxData          connection receive window advertised at first (initial_max_data)
 * @param maxConnectionWindow     largest the connection window may grow by auto-tuning
 * @param initialMaxStreamData    stream receive window advertised at first (all three initial_max_stream_data_*)
 * @param maxStreamWindow         largest a stream window may grow by auto-tuning
 * @param maxStreamsBidi          concurrent peer-initiated bidirectional streams allowed
 * @param maxStreamsUni           concurrent peer-initiated unidirectional streams allowed
 * @param sendBufferPerStream     bytes a stream buffers until acknowledged
 */
public record StreamLimits(long initialMaxData, long maxConnectionWindow, long initialMaxStreamData,
                           long maxStreamWindow, long maxStreamsBidi, long maxStreamsUni, long sendBufferPerStream) {

    /** Defaults sized for fast paths (the QUIC on the Highway study found small windows limit goodput). */
    public static StreamLimits defaults() {
        return new StreamLimits(16L << 20, 64L << 20, 8L << 20, 32L << 20, 128, 16, 8L << 20);
    }
}
