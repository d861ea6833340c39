package org.pacelab.io.send;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.Map;

import org.pacelab.quic.conn.QuicConnection;

/**
 * Hands the datagrams a connection releases to the kernel, one at a time or gathered into sendmmsg batches and
 * GSO buffers with send times. The event loop {@link #add}s each datagram as the connection releases it and
 * {@link #flush}es before it waits, so nothing is held across a wait.
 */
public interface Transmitter extends AutoCloseable {

    /**
     * Takes the datagram between {@code datagram}'s position and limit (copying it or sending it at once).
     *
     * @param intendedSendTime the pacer's intended send time (System.nanoTime scale), possibly in the future with a
     *                         pacing look-ahead
     * @param connection       the connection that released it (for its pacing rate and loss counters)
     * @throws UnsupportedSendStrategyException when the host turns out unable to honour the strategy toward {@code to}
     */
    void add(ByteBuffer datagram, InetSocketAddress to, long intendedSendTime, QuicConnection connection) throws IOException;

    /** Hands everything taken so far to the kernel. */
    void flush() throws IOException;

    /** Counters for reports: datagrams, kernel calls, full send buffers, drops. */
    Map<String, Long> counters();

    @Override
    void close();
}
