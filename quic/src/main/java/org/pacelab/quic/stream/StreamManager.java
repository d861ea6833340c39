package org.pacelab.quic.stream;

import java.util.ArrayDeque;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

import org.pacelab.quic.QuicException;
import org.pacelab.quic.TransportError;

/**
 * All streams of a connection: opening within the peer's limits, accepting peer-opened streams within
 * ours (RFC 9000 §4.6), crediting the peer with new streams as old ones finish, and the round-robin order
 * in which streams with data get to send.
 */
public final class StreamManager {
    private final boolean isClient;
    private final StreamLimits limits;
    private final Map<Long, QuicStream> streams = new HashMap<>();
    private final ArrayDeque<QuicStream> sendQueue = new ArrayDeque<>();

    // peer's transport parameters (what we may send)
    private long peerBidiLocal;
    private long peerBidiRemote;
    private long peerUni;
    private long peerMaxBidi;
    private long peerMaxUni;

    private long nextLocalBidi;
    private long nextLocalUni;
    private long nextPeerBidi;
    private long nextPeerUni;
    private long localMaxBidi;
    private long localMaxUni;
    private long advertisedMaxBidi;
    private long advertisedMaxUni;

    public StreamManager(boolean isClient, StreamLimits limits) {
        this.isClient = isClient;
        this.limits = limits;
        this.localMaxBidi = limits.maxStreamsBidi();
        this.localMaxUni = limits.maxStreamsUni();
        this.advertisedMaxBidi = localMaxBidi;
        this.advertisedMaxUni = localMaxUni;
    }

    /** Applies the peer's transport parameters (RFC 9000 §18.2). */
    public void setPeerLimits(long bidiLocal, long bidiRemote, long uni, long maxBidi, long maxUni) {
        this.peerBidiLocal = bidiLocal;
        this.peerBidiRemote = bidiRemote;
        this.peerUni = uni;
        this.peerMaxBidi = Math.max(peerMaxBidi, maxBidi);
        this.peerMaxUni = Math.max(peerMaxUni, maxUni);
    }

    /**
     * Opens a local stream, or returns null if the peer's limit forbids it now (the caller then has a
     * STREAMS_BLOCKED to send, RFC 9000 §4.6).
     */
    public QuicStream open(boolean bidirectional) {
        long index = bidirectional ? nextLocalBidi : nextLocalUni;
        long max = bidirectional ? peerMaxBidi : peerMaxUni;
        if (index >= max) {
            return null;
        }
        long id = StreamId.of(index, isClient, bidirectional);
        QuicStream s = new QuicStream(id, true, bidirectional, limits.sendBufferPerStream(),
                bidirectional ? peerBidiRemote : peerUni,
                limits.initialMaxStreamData(), limits.maxStreamWindow());
        if (bidirectional) {
            nextLocalBidi++;
        } else {
            nextLocalUni++;
        }
        streams.put(id, s);
        return s;
    }


    /**
     * Finds the stream a received frame refers to, opening peer-initiated streams implicitly
     * (RFC 9000 §3.2: lower-numbered streams of the same type open too). Returns null for a stream that existed and
     * is finished (the frame is then ignored).
     */
    public QuicStream streamForPeerFrame(long id, long frameType, java.util.function.LongConsumer onOpened) throws QuicException {
        QuicStream s = streams.get(id);
        if (s != null) {
            return s;
        }
        boolean bidi = StreamId.isBidirectional(id);
        long index = StreamId.index(id);
        if (StreamId.isLocal(id, isClient)) {
            long next = bidi ? nextLocalBidi : nextLocalUni;
            if (index >= next) {
                throw new QuicException(TransportError.STREAM_STATE_ERROR, frameType, "frame for local stream " + id + " not yet opened");
            }
            return null;
        }
        long next = bidi ? nextPeerBidi : nextPeerUni;
        if (index < next) {
            return null;
        }
        long max = bidi ? localMaxBidi : localMaxUni;
        if (index >= max) {
            throw new QuicException(TransportError.STREAM_LIMIT_ERROR, frameType, "peer opened stream " + id + " beyond the limit " + max);
        }
        QuicStream last = null;
        for (long i = next; i <= index; i++) {
            long sid = StreamId.of(i, !isClient, bidi);
            QuicStream ns = new QuicStream(sid, bidi, true, limits.sendBufferPerStream(),
                    bidi ? peerBidiLocal : 0, limits.initialMaxStreamData(), limits.maxStreamWindow());
            streams.put(sid, ns);
            onOpened.accept(sid);
            last = ns;
        }
        if (bidi) {
            nextPeerBidi = index + 1;
        } else {
            nextPeerUni = index + 1;
        }
        return last;
    }

    public QuicStream get(long id) {
        return streams.get(id);
    }

    public Collection<QuicStream> all() {
        return streams.values();
    }

    /** MAX_STREAMS from the peer; returns true when it raised a limit. */
    public boolean onMaxStreams(boolean bidirectional, long max) {
        if (bidirectional && max > peerMaxBidi) {
            peerMaxBidi = max;
            return true;
        }
        if (!bidirectional && max > peerMaxUni) {
            peerMaxUni = max;
            return true;
        }
        return false;
    }

    /**
     * Forgets a finished stream; a peer-initiated one earns the peer a new stream credit. Returns whether a
     * MAX_STREAMS for the stream's type is due (half the limit was credited since the last one).
     */
    public boolean remove(QuicStream s) {
        if (streams.remove(s.id) == null) {
            return false;
        }
        sendQueue.remove(s);
        if (StreamId.isLocal(s.id, isClient)) {
            return false;
        }
        if (StreamId.isBidirectional(s.id)) {
            localMaxBidi++;
            return localMaxBidi - advertisedMaxBidi >= Math.max(1, limits.maxStreamsBidi() / 2);
        }
        localMaxUni++;
        return localMaxUni - advertisedMaxUni >= Math.max(1, limits.maxStreamsUni() / 2);
    }

    /** Queues a stream for sending if it is not queued already. */
    public void markSendable(QuicStream s) {
        if (!sendQueue.contains(s)) {
            sendQueue.addLast(s);
        }
    }

    public ArrayDeque<QuicStream> sendQueue() { return sendQueue; }

    /** Returns the MAX_STREAMS value to send and marks it advertised. */
    public long advertiseMaxStreams(boolean bidi) {
        if (bidi) {
            advertisedMaxBidi = localMaxBidi;
            return localMaxBidi;
        }
        advertisedMaxUni = localMaxUni;
        return localMaxUni;
    }

    public long peerMaxStreams(boolean bidi) { return bidi ? peerMaxBidi : peerMaxUni; }

    public StreamLimits limits() { return limits; }
}
