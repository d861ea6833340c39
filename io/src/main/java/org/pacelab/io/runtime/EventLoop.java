package org.pacelab.io.runtime;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

import org.pacelab.io.port.DatagramPort;
import org.pacelab.quic.conn.QuicConnection;
import org.pacelab.quic.conn.SendResult;

/**
 * The real-time runtime of one endpoint: a single thread that receives datagrams, runs timers, and sends
 * what the connections release, waiting in between with the chosen {@link WaitStrategy}. All connection
 * calls happen on this thread, with {@code now} from {@link System#nanoTime()}.
 */
public final class EventLoop implements Runnable {
    /** At most this many datagrams are read or written per connection before the loop turns. */
    private static final int BATCH = 64;

    private final DatagramPort port;
    private final Connections connections;
    private final WaitStrategy wait;
    private final ByteBuffer rx = ByteBuffer.allocate(65536);
    private final ByteBuffer tx = ByteBuffer.allocate(65536);
    private volatile boolean stopped;
    private long datagramsSent;
    private long datagramsReceived;
    private long sendBufferFull;

    public EventLoop(DatagramPort port, Connections connections, WaitStrategy wait) {
        this.port = port;
        this.connections = connections;
        this.wait = wait;
    }

    /** Asks the loop to end at its next turn (thread-safe). */
    public void stop() {
        stopped = true;
        port.wakeup();
    }

    @Override
    public void run() {
        Connections.Replies replies = this::sendReply;
        try {
            while (!stopped && !connections.finished()) {
                long now = System.nanoTime();
                receiveBatch(replies);
                now = System.nanoTime();
                long wake = Long.MAX_VALUE;
                for (Connections.Peer p : connections.active()) {
                    QuicConnection c = p.connection();
                    if (c.nextTimeout() <= now) {
                        c.onTimeout(now);
                    }
                    wake = Math.min(wake, flush(p, now));
                    wake = Math.min(wake, c.nextTimeout());
                }
                connections.sweep();
                if (connections.finished()) {
                    break;
                }
                now = System.nanoTime();
                long delay = wake - now;
                if (delay <= 0) {
                    port.awaitReadable(0);
                } else if (delay > wait.socketWaitThreshold()) {
                    port.awaitReadable(delay - wait.socketWaitThreshold() / 2);
                } else {
                    wait.waitUntil(wake);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void receiveBatch(Connections.Replies replies) throws IOException {
        for (int i = 0; i < BATCH * 4; i++) {
            rx.clear();
            InetSocketAddress from = port.receive(rx);
            if (from == null) {
                return;
            }
            datagramsReceived++;
            rx.flip();
            connections.receive(rx, from, System.nanoTime(), replies);
        }
    }

    /** Sends what the connection releases now; returns when it wants to send again (pacer), or MAX. */
    private long flush(Connections.Peer p, long now) throws IOException {
        QuicConnection c = p.connection();
        for (int i = 0; i < BATCH; i++) {
            tx.clear();
            SendResult r = c.send(tx, now);
            if (r.isBlockedByPacer()) {
                return r.blockedUntil();
            }
            if (!r.wrote()) {
                return Long.MAX_VALUE;
            }
            tx.flip();
            sendWithRetry(tx, p.address());
            datagramsSent++;
            now = System.nanoTime();
        }
        return now;
    }

    /** Sends, waiting briefly while the kernel's send buffer is full (bounded: then the datagram is dropped). */
    private void sendWithRetry(ByteBuffer datagram, InetSocketAddress to) throws IOException {
        for (int attempt = 0; attempt < 2000; attempt++) {
            if (port.send(datagram, to)) {
                return;
            }
            sendBufferFull++;
            java.util.concurrent.locks.LockSupport.parkNanos(20_000L);
        }
    }

    private void sendReply(ByteBuffer datagram, InetSocketAddress to) {
        try {
            port.send(datagram, to);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public long datagramsSent() { return datagramsSent; }

    public long datagramsReceived() { return datagramsReceived; }

    /** Datagrams the kernel refused because the socket's send buffer was full. */
    public long sendBufferFull() { return sendBufferFull; }
}
