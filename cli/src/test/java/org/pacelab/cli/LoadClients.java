package org.pacelab.cli;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import org.pacelab.io.runtime.Connections;
import org.pacelab.io.runtime.EventLoop;
import org.pacelab.io.send.SendConfig;
import org.pacelab.io.send.SendPath;
import org.pacelab.quic.app.ApplicationHandler;
import org.pacelab.quic.app.StreamTransport;
import org.pacelab.quic.conn.ConnectionConfig;
import org.pacelab.quic.conn.LocalConnectionIds;
import org.pacelab.quic.conn.QuicConnection;
import org.pacelab.quic.conn.StatelessResetTokens;
import org.pacelab.quic.content.DownloadListener;
import org.pacelab.quic.content.DownloadRequest;
import org.pacelab.quic.content.DownloadResult;
import org.pacelab.quic.content.DownloadSink;
import org.pacelab.quic.h3.H3ClientHandler;
import org.pacelab.quic.hq.HqClientHandler;
import org.pacelab.quic.packet.PacketParser;

/**
 * A load generator: many pacelab client connections (the stack's own client, h3 or hq-interop) sharing one UDP
 * socket and one event-loop thread, demultiplexed by connection ID. Each connection downloads its requests; with a
 * gate, the requests wait until the gate opens (so every connection is established at the same time), and each
 * connection closes when its downloads have finished.
 */
final class LoadClients implements Connections, AutoCloseable {
    private final Map<ByteBuffer, QuicConnection> byCid = new HashMap<>();
    private final List<Peer> peers = new ArrayList<>();
    private final List<Gated> gated = new ArrayList<>();
    private final List<DownloadResult> results = new ArrayList<>();
    private final InetSocketAddress server;
    private final int cidLength;
    private final SendPath path;
    private final EventLoop loop;
    private final Thread thread;
    private final BooleanSupplier gate;
    private final AtomicInteger handshakes;
    private final AtomicInteger settled;
    private final java.util.Set<QuicConnection> unsettled = new java.util.HashSet<>();
    private final CountDownLatch done = new CountDownLatch(1);
    private final long deadline;
    private volatile Throwable failure;
    private long lastHandshakeNanos;
    private boolean opened;

    /**
     * @param handshakes counted up once per completed handshake (shared by several generators)
     * @param settled    counted up once per connection that completed its handshake or ended before (shared)
     * @param gate       requests start once this holds (checked on the loop thread)
     */
    LoadClients(InetSocketAddress server, ConnectionConfig config, int connections, List<String> targets, long seed,
                AtomicInteger handshakes, AtomicInteger settled, BooleanSupplier gate, long timeoutNanos) throws IOException, org.pacelab.quic.QuicException {
        this.server = server;
        this.cidLength = config.localCidLength();
        this.gate = gate;
        this.handshakes = handshakes;
        this.settled = settled;
        this.deadline = System.nanoTime() + timeoutNanos;
        this.path = SendPath.open(SendConfig.DEFAULT, new InetSocketAddress("127.0.0.1", 0), 4 << 20, null);
        SplittableRandom random = new SplittableRandom(seed);
        String alpn = config.tls().applicationProtocols().getFirst();
        String authority = server.getHostString() + ":" + server.getPort();
        for (int i = 0; i < connections; i++) {
            List<DownloadRequest> requests = targets.stream().map(t -> new DownloadRequest(authority, t)).toList();
            DownloadListener listener = new DownloadListener() {
                @Override
                public void onDownloadFinished(DownloadResult result) {
                    results.add(result);
                }

                @Override
                public void onAllFinished(List<DownloadResult> all) { }
            };
            ApplicationHandler app = "h3".equals(alpn)
                    ? new H3ClientHandler(requests, DownloadSink.DISCARD, listener, System::nanoTime)
                    : new HqClientHandler(requests, DownloadSink.DISCARD, listener, System::nanoTime);
            Gated g = new Gated(app);
            gated.add(g);
            byte[] key = new byte[32];
            random.nextBytes(key);
            QuicConnection[] owner = new QuicConnection[1];
            QuicConnection c = QuicConnection.client(config, g, random.split(), new StatelessResetTokens(key), routes(owner),
                    System.nanoTime());
            owner[0] = c;
            byCid.put(ByteBuffer.wrap(c.sourceConnectionId()), c);
            peers.add(new Peer(c, server));
            unsettled.add(c);
        }
        this.loop = new EventLoop(path, this);
        this.thread = Thread.ofPlatform().name("load-clients").unstarted(() -> {
            try {
                loop.run();
            } catch (Throwable t) {
                failure = t;
            } finally {
                done.countDown();
            }
        });
    }

    /** Routes the connection IDs {@code owner[0]} issues later (NEW_CONNECTION_ID) to it. */
    private LocalConnectionIds.Listener routes(QuicConnection[] owner) {
        return new LocalConnectionIds.Listener() {
            @Override
            public void onIssued(byte[] cid) {
                if (owner[0] != null) {
                    byCid.put(ByteBuffer.wrap(cid.clone()), owner[0]);
                }
            }

            @Override
            public void onRetired(byte[] cid) {
                byCid.remove(ByteBuffer.wrap(cid));
            }
        };
    }

    void start() {
        thread.start();
    }

    /** Waits for the generator to finish (all connections terminated, or the deadline). */
    void await() throws InterruptedException {
        done.await();
    }

    Throwable failure() {
        return failure;
    }

    /** Every download's result (one per request that ended). */
    List<DownloadResult> results() {
        return results;
    }

    /**
     * The connections' states by count, for a failure message: e.g. "handshake_done=120 open_in_handshake=3
     * closed:0x7=2" (open connections still in their handshake, closed ones by error code and reason).
     */
    String describeStates() {
        Map<String, Integer> m = new java.util.TreeMap<>();
        for (Peer p : peers) {
            QuicConnection c = p.connection();
            String k;
            if (c.isTerminated()) {
                k = "ended:" + (c.isHandshakeComplete() ? "after" : "before") + "_handshake:0x" + Long.toHexString(c.closeErrorCode())
                        + (c.closeReason() == null || c.closeReason().isEmpty() ? "" : "(" + c.closeReason() + ")");
            } else {
                k = c.isHandshakeComplete() ? "open_handshake_done" : "open_in_handshake";
            }
            m.merge(k, 1, Integer::sum);
        }
        return m.toString();
    }

    /** When the last of this generator's handshakes completed (System.nanoTime), or 0. */
    long lastHandshakeNanos() {
        return lastHandshakeNanos;
    }

    @Override
    public void receive(ByteBuffer datagram, InetSocketAddress from, long now, Replies replies) {
        byte[] dcid = PacketParser.peekDestinationConnectionId(datagram, cidLength);
        QuicConnection c = dcid == null ? null : byCid.get(ByteBuffer.wrap(dcid));
        if (c == null) {
            return;
        }
        boolean before = c.isHandshakeComplete();
        c.receive(datagram, now);
        if (!before && c.isHandshakeComplete()) {
            handshakes.incrementAndGet();
            lastHandshakeNanos = now;
            if (unsettled.remove(c)) {
                settled.incrementAndGet();
            }
        }
    }

    @Override
    public List<Peer> active() {
        if (!unsettled.isEmpty()) {
            unsettled.removeIf(c -> {
                boolean ended = c.isTerminated();
                if (ended) {
                    settled.incrementAndGet();
                }
                return ended;
            });
        }
        if (!opened && gate.getAsBoolean()) {
            opened = true;
            for (Gated g : gated) {
                g.open();
            }
        }
        return peers;
    }

    @Override
    public boolean finished() {
        if (System.nanoTime() >= deadline) {
            return true;
        }
        for (Peer p : peers) {
            if (!p.connection().isTerminated()) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void close() throws IOException {
        loop.stop();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        path.close();
    }

    /** An application handler whose callbacks wait until {@link #open()} (the gate). */
    private static final class Gated implements ApplicationHandler {
        private final ApplicationHandler app;
        private final List<Runnable> held = new ArrayList<>();
        private StreamTransport transport;
        private boolean open;

        Gated(ApplicationHandler app) {
            this.app = app;
        }

        void open() {
            open = true;
            if (transport != null) {
                app.onConnected(transport);
                for (Runnable r : held) {
                    r.run();
                }
                held.clear();
            }
        }

        private void call(Runnable r) {
            if (open && transport != null) {
                r.run();
            } else {
                held.add(r);
            }
        }

        @Override
        public void onConnected(StreamTransport t) {
            transport = t;
            if (open) {
                app.onConnected(t);
                held.forEach(Runnable::run);
                held.clear();
            }
        }

        @Override
        public void onPeerStreamOpened(long id) { call(() -> app.onPeerStreamOpened(id)); }

        @Override
        public void onStreamReadable(long id) { call(() -> app.onStreamReadable(id)); }

        @Override
        public void onStreamWritable(long id) { call(() -> app.onStreamWritable(id)); }

        @Override
        public void onStreamComplete(long id) { call(() -> app.onStreamComplete(id)); }

        @Override
        public void onStreamReset(long id, long code) { call(() -> app.onStreamReset(id, code)); }

        @Override
        public void onStopSending(long id, long code) { call(() -> app.onStopSending(id, code)); }

        @Override
        public void onStreamsAvailable() { call(app::onStreamsAvailable); }

        @Override
        public void onClosed(long errorCode, boolean application, String reason) {
            app.onClosed(errorCode, application, reason);
        }
    }
}
