package org.pacelab.io.runtime;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.pacelab.io.port.DatagramPort;
import org.pacelab.io.send.SendPath;
import org.pacelab.io.send.Transmitter;
import org.pacelab.quic.conn.NetworkPath;
import org.pacelab.quic.conn.QuicConnection;
import org.pacelab.quic.conn.SendResult;

/**
 * The real-time runtime of one endpoint: a single thread that receives datagrams, runs timers, and hands what
 * the connections release to the {@link Transmitter}, waiting in between with the chosen {@link WaitStrategy}.
 * All connection calls happen on this thread, with {@code now} from {@link System#nanoTime()}.
 *
 * <p>With a pacing look-ahead L (send times for an fq/etf qdisc) a connection releases packets up to L before
 * their intended time, so the loop comes back L before the pacer's next release time.
 *
 * <p>An endpoint may have more sockets than its first (a server's preferred address, RFC 9000 §9.6): the loop reads them
 * all, tells the connections at which local address each datagram arrived (null for the first socket), and sends each
 * datagram from the socket of the path the connection says it goes on ({@link SendResult#path()}).
 */
public final class EventLoop implements Runnable {
    /** At most this many datagrams are read or written per connection before the loop turns. */
    private static final int BATCH = 64;

    private final DatagramPort port;
    private final Connections connections;
    private final WaitStrategy wait;
    private final Transmitter transmitter;
    private final long lookahead;
    private final SendPath path;
    /** The endpoint's other sockets by their local address. */
    private final Map<InetSocketAddress, SendPath> more;
    /** Whether the first socket's wait also ends for datagrams on the others; if not, waits are cut to {@link #POLL_NANOS}. */
    private final boolean waitsForAll;
    /** How long the loop waits at most when it cannot wait on all its sockets at once. */
    private static final long POLL_NANOS = 1_000_000L;
    private final ByteBuffer rx = ByteBuffer.allocate(65536);
    private final ByteBuffer tx = ByteBuffer.allocate(65536);
    private final ServiceOrder order = new ServiceOrder();
    private volatile boolean stopped;
    private long datagramsReleased;
    private long datagramsReceived;

    public EventLoop(SendPath path, Connections connections) {
        this(path, Map.of(), connections);
    }

    /** @param more the endpoint's other sockets, by the local address they are bound to */
    public EventLoop(SendPath path, Map<InetSocketAddress, SendPath> more, Connections connections) {
        this.more = new LinkedHashMap<>(more);
        boolean all = true;
        for (SendPath p : more.values()) {
            all &= path.port().alsoWaitFor(p.port());
        }
        this.waitsForAll = all;
        this.path = path;
        this.port = path.port();
        this.connections = connections;
        this.wait = path.waitStrategy();
        this.transmitter = path.transmitter();
        this.lookahead = path.lookahead();
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
            path.prepareThread();
            while (!stopped && !connections.finished()) {
                // send what is due first: the wait below ended at a pacer's release time, and processing the
                // datagrams that arrived meanwhile would make that packet late
                long wake = serveConnections(System.nanoTime());
                if (receiveBatch(replies) > 0) {
                    wake = serveConnections(System.nanoTime());
                }
                connections.sweep();
                if (connections.finished()) {
                    break;
                }
                long now = System.nanoTime();
                long delay = wake - now;
                if (!waitsForAll) {
                    delay = Math.min(delay, POLL_NANOS);
                }
                for (SendPath p : more.values()) {
                    if (p.port().hasBuffered()) {
                        delay = 0;
                    }
                }
                if (delay <= 0) {
                    port.awaitReadable(0);
                } else if (delay > wait.socketWaitThreshold()) {
                    port.awaitReadable(delay - wait.socketWaitThreshold() / 2);
                } else {
                    wait.waitUntil(wake);
                }
            }
            flushAll();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void flushAll() throws IOException {
        transmitter.flush();
        for (SendPath p : more.values()) {
            p.transmitter().flush();
        }
    }

    /**
     * Runs due timers and sends what every connection releases now, starting one connection further along each turn
     * ({@link ServiceOrder}); returns the earliest time to come back.
     */
    private long serveConnections(long now) throws IOException {
        long wake = Long.MAX_VALUE;
        List<Connections.Peer> active = connections.active();
        int count = active.size();
        int first = order.first(count);
        for (int k = 0; k < count; k++) {
            Connections.Peer p = active.get((first + k) % count);
            QuicConnection c = p.connection();
            if (c.nextTimeout() <= now) {
                c.onTimeout(now);
                // a timer's work can take milliseconds (a server's ClientHello goes to TLS on InitialAckFirst's timer:
                // key exchange and the certificate's signature, 12-19 ms on the relay at quic-steps); what it releases
                // is stamped with the time it is built, or the sender's first RTT sample (RFC 9002 §5.3) and the
                // packets' send times in qlog would hold that work
                now = System.nanoTime();
            }
            wake = Math.min(wake, flush(p, now));
            wake = Math.min(wake, c.nextTimeout());
        }
        return wake;
    }

    /**
     * Reads and processes the datagrams waiting (a bounded number) as one burst: each is processed as it is read,
     * the applications hear of the burst once at its end, and the connections acknowledge it when next served
     * (RFC 9000 §13.2.2). Returns how many.
     */
    private int receiveBatch(Connections.Replies replies) throws IOException {
        int n = 0;
        try {
            n += receiveBatch(port, null, replies);
            for (Map.Entry<InetSocketAddress, SendPath> e : more.entrySet()) {
                DatagramPort other = e.getValue().port();
                n += receiveBatch(other, e.getKey(), (datagram, to) -> sendReply(other, datagram, to));
            }
            return n;
        } finally {
            if (n > 0) {
                connections.endReceiveBurst();
            }
        }
    }

    /** The datagrams waiting at one socket ({@code local}: null for the first). */
    private int receiveBatch(DatagramPort from, InetSocketAddress local, Connections.Replies replies) throws IOException {
        int i = 0;
        for (; i < BATCH * 4; i++) {
            rx.clear();
            InetSocketAddress sender = from.receive(rx);
            if (sender == null) {
                return i;
            }
            datagramsReceived++;
            rx.flip();
            int tc = from.lastTrafficClass();
            // the arrival time too: time a datagram waited in the socket buffer of a busy host counts (a Retry
            // token's age)
            if (local == null) {
                connections.receiveInBurst(rx, sender, tc < 0 ? -1 : tc & 3, from.lastReceiveTime(), System.nanoTime(),
                        replies);
            } else {
                connections.receiveInBurst(rx, sender, local, tc < 0 ? -1 : tc & 3, from.lastReceiveTime(),
                        System.nanoTime(), replies);
            }
        }
        return i;
    }

    /**
     * Hands what the connection releases now to the transmitter, then flushes it; returns when the connection
     * wants to send again (the pacer's release time less the look-ahead), or MAX.
     */
    private long flush(Connections.Peer p, long now) throws IOException {
        QuicConnection c = p.connection();
        long again = now;
        for (int i = 0; i < BATCH; i++) {
            tx.clear();
            SendResult r = c.send(tx, now);
            if (r.isBlockedByPacer()) {
                again = r.blockedUntil() - lookahead;
                break;
            }
            if (!r.wrote()) {
                again = Long.MAX_VALUE;
                break;
            }
            tx.flip();
            NetworkPath onPath = r.path();
            SendPath via = onPath == null || onPath.local() == null ? null : more.get(onPath.local());
            (via == null ? transmitter : via.transmitter()).add(tx, onPath == null ? p.address() : onPath.remote(),
                    r.intendedSendTime(), c);
            datagramsReleased++;
            now = System.nanoTime();
            again = now;
        }
        flushAll();
        return again;
    }

    private void sendReply(ByteBuffer datagram, InetSocketAddress to) {
        sendReply(port, datagram, to);
    }

    private static void sendReply(DatagramPort port, ByteBuffer datagram, InetSocketAddress to) {
        try {
            port.send(datagram, to);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Datagrams the connections released (handed to the transmitter). */
    public long datagramsReleased() { return datagramsReleased; }

    public long datagramsReceived() { return datagramsReceived; }

    /** The loop's and the transmitter's counters. */
    public Map<String, Long> counters() {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("datagrams_released", datagramsReleased);
        m.put("datagrams_received", datagramsReceived);
        m.putAll(transmitter.counters());
        long drops = port.receiveBufferDrops();
        if (drops >= 0) {
            m.put("receive_buffer_drops", drops);
        }
        return m;
    }
}
