package org.pacelab.io.send;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

import org.pacelab.io.port.DatagramPort;
import org.pacelab.quic.conn.QuicConnection;

/**
 * Sends every datagram at once with one system call ({@link DatagramPort#send}): the JDK socket's only way, and
 * the plain per-packet sendmsg of the study. While the kernel's send buffer is full it retries every 20 µs for at
 * most 40 ms, then drops the datagram (the connection's loss recovery resends its frames).
 */
public final class DirectTransmitter implements Transmitter {
    static final int RETRIES = 2000;
    static final long RETRY_PAUSE_NANOS = 20_000L;

    private final DatagramPort port;
    private long datagrams;
    private long calls;
    private long sendBufferFull;
    private long dropped;

    public DirectTransmitter(DatagramPort port) {
        this.port = port;
    }

    @Override
    public void add(ByteBuffer datagram, InetSocketAddress to, long intendedSendTime, QuicConnection connection)
            throws IOException {
        port.setTrafficClass(connection == null ? 0 : connection.ecnCodepoint());
        for (int attempt = 0; attempt < RETRIES; attempt++) {
            calls++;
            if (port.send(datagram, to)) {
                datagrams++;
                return;
            }
            sendBufferFull++;
            LockSupport.parkNanos(RETRY_PAUSE_NANOS);
        }
        dropped++;
    }

    @Override
    public void flush() {}

    @Override
    public Map<String, Long> counters() {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("datagrams_sent", datagrams);
        m.put("send_calls", calls);
        m.put("send_buffer_full", sendBufferFull);
        m.put("datagrams_dropped_locally", dropped);
        return m;
    }

    @Override
    public void close() {}
}
