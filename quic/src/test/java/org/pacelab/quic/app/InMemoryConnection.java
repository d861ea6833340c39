package org.pacelab.quic.app;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A deterministic in-memory connection between a client and a server {@link ApplicationHandler}, for
 * tests: per-stream send buffers and receive windows of a few kilobytes (so writes come up short and
 * {@link ApplicationHandler#onStreamWritable} is exercised), "packets" of a fixed size moved round-robin
 * over streams, stream limits that grow as the peer finishes streams (exercising
 * {@link ApplicationHandler#onStreamsAvailable}), RESET_STREAM, STOP_SENDING and CONNECTION_CLOSE.
 * Nothing happens between {@link #step()} calls; every callback runs from {@code step()}.
 */
public final class InMemoryConnection {

    /** Knobs of the fake transport. */
    public record Settings(int sendBuffer, int receiveWindow, int packetSize, int maxBidiStreams,
            int maxUniStreams, String alpn) {
        public static Settings of(String alpn) {
            return new Settings(4096, 8192, 1200, 8, 4, alpn);
        }

        public Settings withStreams(int bidi, int uni) {
            return new Settings(sendBuffer, receiveWindow, packetSize, bidi, uni, alpn);
        }

        public Settings withBuffers(int send, int window, int packet) {
            return new Settings(send, window, packet, maxBidiStreams, maxUniStreams, alpn);
        }
    }

    public final Side client;
    public final Side server;
    private final Settings settings;
    private long now;
    private long steps;

    public InMemoryConnection(ApplicationHandler clientHandler, ApplicationHandler serverHandler, Settings settings) {
        this.settings = settings;
        this.client = new Side(true, clientHandler);
        this.server = new Side(false, serverHandler);
        client.peer = server;
        server.peer = client;
    }

    /** The fake clock, advanced by 1000 ns per step: pass {@code conn::now} as the client's clock. */
    public long now() {
        return now;
    }

    /** Completes the "handshake": the server's then the client's onConnected. */
    public void start() {
        server.handler.onConnected(server);
        client.handler.onConnected(client);
    }

    /** Runs steps until nothing moves any more; fails after {@code maxSteps}. Returns the steps taken. */
    public long runUntilQuiet(long maxSteps) {
        long start = steps;
        while (step()) {
            if (steps - start > maxSteps) {
                throw new AssertionError("the connection still moves data after " + maxSteps + " steps");
            }
        }
        return steps - start;
    }

    /** One round: each side's queued events, then one packet per stream per direction. */
    public boolean step() {
        steps++;
        now += 1000;
        boolean moved = client.deliverEvents() | server.deliverEvents();
        if (client.closed && server.closed) {
            return moved;
        }
        moved |= client.transmit() | server.transmit();
        moved |= client.grantStreams() | server.grantStreams();
        return moved;
    }

    private final class Stream {
        final long id;
        final Fifo send = new Fifo(settings.sendBuffer);
        final Fifo recv = new Fifo(settings.receiveWindow);
        boolean sendFin;
        boolean finDelivered;
        boolean resetSent;
        boolean wantWritable;
        boolean recvFin;
        boolean recvReset;
        boolean recvFinRead;
        boolean announced;
        boolean counted;

        Stream(long id) {
            this.id = id;
        }

        boolean bidirectional() {
            return (id & 2) == 0;
        }
    }

    /** One endpoint's view: the {@link StreamTransport} its handler uses. */
    public final class Side implements StreamTransport {
        final boolean isClient;
        final ApplicationHandler handler;
        Side peer;
        final Map<Long, Stream> streams = new TreeMap<>();
        private final ArrayDeque<Runnable> events = new ArrayDeque<>();
        private long nextBidi;
        private long nextUni;
        private int openedBidi;
        private int openedUni;
        private int bidiLimit = settings.maxBidiStreams;
        private int uniLimit = settings.maxUniStreams;
        private boolean wantStreams;
        boolean closed;
        /** The application error code this side closed the connection with, or null. */
        public Long closeCode;
        public String closeReason;
        /** Callbacks made: onClosed code as seen by this side's handler, or null. */
        public Long closedWithCode;
        /** RESET_STREAM codes this side sent, by stream. */
        public final Map<Long, Long> resetsSent = new TreeMap<>();
        /** STOP_SENDING codes this side sent, by stream. */
        public final Map<Long, Long> stopSendingsSent = new TreeMap<>();
        /** Largest write accepted, to check callers never see unbounded buffering. */
        public final List<Integer> shortWrites = new ArrayList<>();

        Side(boolean isClient, ApplicationHandler handler) {
            this.isClient = isClient;
            this.handler = handler;
            this.nextBidi = isClient ? 0 : 1;
            this.nextUni = isClient ? 2 : 3;
        }

        @Override
        public boolean isClient() {
            return isClient;
        }

        @Override
        public String applicationProtocol() {
            return settings.alpn;
        }

        @Override
        public long openStream(boolean bidirectional) {
            if (closed) {
                return -1;
            }
            if (bidirectional ? openedBidi >= bidiLimit : openedUni >= uniLimit) {
                wantStreams = true;
                return -1;
            }
            long id;
            if (bidirectional) {
                id = nextBidi;
                nextBidi += 4;
                openedBidi++;
            } else {
                id = nextUni;
                nextUni += 4;
                openedUni++;
            }
            streams.put(id, new Stream(id));
            return id;
        }

        @Override
        public int write(long streamId, ByteBuffer data, boolean fin) {
            Stream s = streams.get(streamId);
            if (s == null || closed || s.sendFin || s.resetSent) {
                throw new IllegalStateException("write on stream " + streamId + " which is "
                        + (s == null ? "unknown" : s.sendFin ? "finished" : s.resetSent ? "reset" : "closed"));
            }
            int offered = data.remaining();
            int n = Math.min(offered, s.send.room());
            s.send.put(data, n);
            if (n < offered) {
                s.wantWritable = true;
                shortWrites.add(n);
            } else if (fin) {
                s.sendFin = true;
            }
            return n;
        }

        @Override
        public void finish(long streamId) {
            Stream s = streams.get(streamId);
            if (s == null || s.resetSent) {
                throw new IllegalStateException("finish on stream " + streamId);
            }
            s.sendFin = true;
        }

        @Override
        public int read(long streamId, ByteBuffer dst) {
            Stream s = streams.get(streamId);
            if (s == null || s.recvReset) {
                return -1;
            }
            int n = Math.min(dst.remaining(), s.recv.size());
            if (n > 0) {
                s.recv.take(dst, n);
                return n;
            }
            if (s.recvFin) {
                s.recvFinRead = true;
                return -1;
            }
            return 0;
        }

        @Override
        public void resetStream(long streamId, long applicationErrorCode) {
            Stream s = streams.get(streamId);
            if (s == null || s.resetSent || closed) {
                return;
            }
            resetsSent.put(streamId, applicationErrorCode);
            s.resetSent = true;
            s.send.clear();
            if (s.finDelivered) {
                return; // all data already received: the peer ignores the reset (RFC 9000 §3.2, "Data Recvd")
            }
            Stream ps = peer.stream(streamId);
            peer.events.add(() -> {
                ps.recvReset = true;
                ps.recv.clear();
                peer.announce(ps);
                peer.handler.onStreamReset(streamId, applicationErrorCode);
            });
        }

        @Override
        public void stopSending(long streamId, long applicationErrorCode) {
            Stream s = streams.get(streamId);
            if (s == null || closed) {
                return;
            }
            stopSendingsSent.put(streamId, applicationErrorCode);
            peer.events.add(() -> peer.handler.onStopSending(streamId, applicationErrorCode));
        }

        @Override
        public void close(long applicationErrorCode, String reason) {
            if (closed) {
                return;
            }
            closed = true;
            closeCode = applicationErrorCode;
            closeReason = reason;
            events.add(() -> {
                closedWithCode = applicationErrorCode;
                handler.onClosed(applicationErrorCode, true, reason);
            });
            if (!peer.closed) {
                peer.closed = true;
                peer.events.add(() -> {
                    peer.closedWithCode = applicationErrorCode;
                    peer.handler.onClosed(applicationErrorCode, true, reason);
                });
            }
        }

        Stream stream(long id) {
            return streams.computeIfAbsent(id, Stream::new);
        }

        private void announce(Stream s) {
            boolean peerInitiated = ((s.id & 1) == 0) != isClient;
            if (peerInitiated && !s.announced) {
                s.announced = true;
                handler.onPeerStreamOpened(s.id);
            }
        }

        boolean deliverEvents() {
            boolean any = !events.isEmpty();
            while (!events.isEmpty()) {
                events.poll().run();
            }
            return any;
        }

        /** Moves up to one packet per stream to the peer. */
        boolean transmit() {
            boolean moved = false;
            for (Stream s : new ArrayList<>(streams.values())) {
                if (closed) {
                    return moved;
                }
                Stream ps = peer.stream(s.id);
                int n = Math.min(settings.packetSize, Math.min(s.send.size(), ps.recv.room()));
                boolean fin = s.sendFin && !s.finDelivered && s.send.size() == n;
                if (n == 0 && !fin) {
                    continue;
                }
                moved = true;
                ps.recv.moveFrom(s.send, n);
                if (fin) {
                    s.finDelivered = true;
                    ps.recvFin = true;
                }
                peer.announce(ps);
                peer.handler.onStreamReadable(s.id);
                if (s.wantWritable && s.send.room() > 0 && !s.resetSent && !closed) {
                    s.wantWritable = false;
                    handler.onStreamWritable(s.id);
                }
                if (fin) {
                    handler.onStreamComplete(s.id);
                }
            }
            return moved;
        }

        /** Raises the peer's stream limit for each of the peer's streams that is now closed (MAX_STREAMS). */
        boolean grantStreams() {
            boolean granted = false;
            for (Stream s : streams.values()) {
                boolean peerInitiated = ((s.id & 1) == 0) != isClient;
                if (!peerInitiated || s.counted) {
                    continue;
                }
                boolean recvDone = s.recvReset || s.recvFinRead;
                boolean sendDone = !s.bidirectional() || s.finDelivered || s.resetSent;
                if (recvDone && sendDone) {
                    s.counted = true;
                    granted = true;
                    if (s.bidirectional()) {
                        peer.bidiLimit++;
                    } else {
                        peer.uniLimit++;
                    }
                }
            }
            if (granted && peer.wantStreams && !peer.closed) {
                peer.wantStreams = false;
                peer.handler.onStreamsAvailable();
            }
            return granted;
        }
    }

    /** A bounded byte queue. */
    private static final class Fifo {
        private final byte[] bytes;
        private int head;
        private int size;

        Fifo(int capacity) {
            bytes = new byte[capacity];
        }

        int size() {
            return size;
        }

        int room() {
            return bytes.length - size;
        }

        void put(ByteBuffer src, int n) {
            for (int i = 0; i < n; i++) {
                bytes[(head + size++) % bytes.length] = src.get();
            }
        }

        void take(ByteBuffer dst, int n) {
            for (int i = 0; i < n; i++) {
                dst.put(bytes[head]);
                head = (head + 1) % bytes.length;
                size--;
            }
        }

        void moveFrom(Fifo other, int n) {
            for (int i = 0; i < n; i++) {
                bytes[(head + size++) % bytes.length] = other.bytes[other.head];
                other.head = (other.head + 1) % other.bytes.length;
                other.size--;
            }
        }

        void clear() {
            head = 0;
            size = 0;
        }
    }
}
