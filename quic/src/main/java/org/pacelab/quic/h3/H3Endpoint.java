package org.pacelab.quic.h3;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.pacelab.quic.app.ApplicationHandler;
import org.pacelab.quic.app.ConnectionEnd;
import org.pacelab.quic.app.StreamTransport;
import org.pacelab.quic.content.PendingWrites;
import org.pacelab.quic.stream.StreamId;
import org.pacelab.quic.wire.VarInt;

/**
 * What HTTP/3 clients and servers share (RFC 9114 §6, RFC 9204 §4.2): opening our control stream with
 * SETTINGS and our QPACK encoder and decoder streams, receiving the peer's unidirectional streams by type,
 * treating the closure of a critical stream as H3_CLOSED_CRITICAL_STREAM, and closing the connection on
 * errors. Request streams are left to the subclass.
 */
public abstract sealed class H3Endpoint implements ApplicationHandler permits H3ServerHandler, H3ClientHandler {
    /** The ALPN protocol identifier of HTTP/3 (RFC 9114 §3.1). */
    public static final String ALPN = "h3";
    /** Bytes read from the transport at a time. */
    static final int READ_CHUNK = 64 * 1024;
    /** The largest HEADERS payload accepted: larger is H3_EXCESSIVE_LOAD. */
    static final int MAX_HEADERS_PAYLOAD = 64 * 1024;

    /** Our SETTINGS (§7.2.4.1, RFC 9204 §5): no dynamic table, so no blocked streams. */
    private static final H3Frame.Settings LOCAL_SETTINGS = new H3Frame.Settings(List.of(
            new H3Frame.Setting(SettingId.QPACK_MAX_TABLE_CAPACITY, 0),
            new H3Frame.Setting(SettingId.QPACK_BLOCKED_STREAMS, 0)));

    StreamTransport transport;
    /** Shared by all streams: the connection calls handlers on one thread, one callback at a time. */
    final ByteBuffer readBuffer = ByteBuffer.allocateDirect(READ_CHUNK);
    final PendingWrites pendingWrites = new PendingWrites();
    private final Map<Long, PeerUniStream> peerUniStreams = new HashMap<>();
    private long controlStream = -1;
    private long encoderStream = -1;
    private long decoderStream = -1;
    private boolean peerControlSeen;
    private boolean peerEncoderSeen;
    private boolean peerDecoderSeen;
    private H3Frame.Settings peerSettings;
    private boolean closed;
    private boolean goawaySent;

    @Override
    public final void onConnected(StreamTransport transport) {
        this.transport = transport;
        try {
            controlStream = openUniStream(UniStreamType.CONTROL, H3FrameCodec.encode(LOCAL_SETTINGS));
            encoderStream = openUniStream(UniStreamType.QPACK_ENCODER, null);
            decoderStream = openUniStream(UniStreamType.QPACK_DECODER, null);
            connected();
        } catch (H3Exception e) {
            fail(e);
        }
    }

    @Override
    public final void onPeerStreamOpened(long streamId) {
        if (closed) {
            return;
        }
        try {
            if (StreamId.isBidirectional(streamId)) {
                peerBidiStreamOpened(streamId);
            } else {
                peerUniStreams.computeIfAbsent(streamId, PeerUniStream::new);
            }
        } catch (H3Exception e) {
            fail(e);
        }
    }

    @Override
    public final void onStreamReadable(long streamId) {
        if (closed) {
            return;
        }
        try {
            if (StreamId.isBidirectional(streamId)) {
                bidiStreamReadable(streamId);
            } else if (isPeerInitiated(streamId)) {
                readPeerUniStream(streamId);
            }
        } catch (H3Exception e) {
            fail(e);
        }
    }

    @Override
    public final void onStreamWritable(long streamId) {
        if (closed) {
            return;
        }
        try {
            switch (pendingWrites.flush(transport, streamId)) {
                case NOTHING_PENDING -> bidiStreamWritable(streamId);
                case COMPLETED -> smallWriteCompleted(streamId);
                case STILL_PENDING -> {
                }
            }
        } catch (H3Exception e) {
            fail(e);
        }
    }

    @Override
    public final void onStreamComplete(long streamId) {
        if (!closed && StreamId.isBidirectional(streamId)) {
            bidiStreamComplete(streamId);
        }
    }

    @Override
    public final void onStreamReset(long streamId, long applicationErrorCode) {
        if (closed) {
            return;
        }
        if (StreamId.isBidirectional(streamId)) {
            bidiStreamReset(streamId, applicationErrorCode);
            return;
        }
        PeerUniStream s = peerUniStreams.remove(streamId);
        if (s != null && s.isCritical()) {
            fail(new H3Exception(H3Error.H3_CLOSED_CRITICAL_STREAM, "the peer reset its "
                    + UniStreamType.name(s.type()) + " stream " + streamId + " with "
                    + H3Error.nameOf(applicationErrorCode) + " (RFC 9114 §6.2.1)"));
        }
    }

    @Override
    public final void onStopSending(long streamId, long applicationErrorCode) {
        if (closed) {
            return;
        }
        if (streamId == controlStream || streamId == encoderStream || streamId == decoderStream) {
            fail(new H3Exception(H3Error.H3_CLOSED_CRITICAL_STREAM, "the peer sent STOP_SENDING ("
                    + H3Error.nameOf(applicationErrorCode) + ") for our "
                    + (streamId == controlStream ? "control" : "QPACK") + " stream " + streamId
                    + ", which must stay open (RFC 9114 §6.2.1)"));
        } else if (StreamId.isBidirectional(streamId)) {
            bidiStopSending(streamId, applicationErrorCode);
        }
    }

    @Override
    public final void onStreamsAvailable() {
        if (!closed) {
            streamsAvailable();
        }
    }

    @Override
    public final void onClosed(long errorCode, boolean application, String reason) {
        if (closed) {
            return;
        }
        closed = true;
        connectionEnded(ConnectionEnd.describe(errorCode, application, reason, H3Error::nameOf));
    }

    /** Whether the connection has ended or is being closed by us. */
    final boolean closed() {
        return closed;
    }

    /** The peer's SETTINGS, or null until they arrive. */
    public final H3Frame.Settings peerSettings() {
        return peerSettings;
    }

    /** Closes the connection with a connection error (RFC 9114 §8). */
    final void fail(H3Exception e) {
        if (closed) {
            return;
        }
        closed = true;
        transport.close(e.code(), e.getMessage());
        connectionEnded("we closed it with " + e);
    }

    /** Sends GOAWAY with {@code id} on our control stream (RFC 9114 §5.2). */
    final void sendGoaway(long id) {
        goawaySent = true;
        pendingWrites.write(transport, controlStream, H3FrameCodec.encode(new H3Frame.Goaway(id)), false);
    }

    /**
     * Ends the connection with H3_NO_ERROR (RFC 9114 §5.2), after a GOAWAY with {@code goawayId} unless
     * one was sent already.
     */
    final void closeGracefully(long goawayId) {
        if (closed) {
            return;
        }
        if (!goawaySent) {
            sendGoaway(goawayId);
        }
        closed = true;
        transport.close(H3Error.H3_NO_ERROR.code, "");
        connectionEnded("we closed it gracefully");
    }

    /** Stream error (RFC 9114 §8): abort both directions of a request stream with {@code error}. */
    final void abortStream(long streamId, H3Error error) {
        transport.stopSending(streamId, error.code);
        transport.resetStream(streamId, error.code);
        pendingWrites.forget(streamId);
    }

    /** Reads and drops whatever is readable on a stream nobody processes any more. */
    final void drain(long streamId) {
        while (true) {
            readBuffer.clear();
            if (transport.read(streamId, readBuffer) <= 0) {
                return;
            }
        }
    }

    /** Whether a stream was opened by the peer. */
    final boolean isPeerInitiated(long streamId) {
        return StreamId.isClientInitiated(streamId) != transport.isClient();
    }

    // ---- subclass hooks ----

    /** Our streams are open; start work. */
    abstract void connected() throws H3Exception;

    abstract void peerBidiStreamOpened(long streamId) throws H3Exception;

    abstract void bidiStreamReadable(long streamId) throws H3Exception;

    abstract void bidiStreamWritable(long streamId) throws H3Exception;

    /** A write kept by {@link #pendingWrites} on a bidirectional stream went out completely. */
    abstract void smallWriteCompleted(long streamId) throws H3Exception;

    abstract void bidiStreamComplete(long streamId);

    abstract void bidiStreamReset(long streamId, long errorCode);

    abstract void bidiStopSending(long streamId, long errorCode);

    abstract void streamsAvailable();

    /** The peer's GOAWAY (RFC 9114 §5.2), already checked not to increase. */
    abstract void goawayReceived(long id) throws H3Exception;

    /** The connection ended, for {@code why}; called once. Release everything held. */
    abstract void connectionEnded(String why);

    // ---- unidirectional streams ----

    private long openUniStream(long type, ByteBuffer firstFrame) throws H3Exception {
        long id = transport.openStream(false);
        if (id < 0) {
            throw new H3Exception(H3Error.H3_GENERAL_PROTOCOL_ERROR, "the peer's stream limit does not allow our "
                    + UniStreamType.name(type) + " stream; HTTP/3 peers must allow at least 3 unidirectional"
                    + " streams (RFC 9114 §6.2)");
        }
        ByteBuffer b = ByteBuffer.allocate(8 + (firstFrame == null ? 0 : firstFrame.remaining()));
        VarInt.write(b, type);
        if (firstFrame != null) {
            b.put(firstFrame);
        }
        pendingWrites.write(transport, id, b.flip(), false);
        return id;
    }

    private void readPeerUniStream(long streamId) throws H3Exception {
        PeerUniStream s = peerUniStreams.computeIfAbsent(streamId, PeerUniStream::new);
        while (!closed) {
            readBuffer.clear();
            int n = transport.read(streamId, readBuffer);
            if (n == 0) {
                return;
            }
            if (n < 0) {
                peerUniStreamEnded(s);
                return;
            }
            readBuffer.flip();
            if (s.type() < 0) {
                if (!s.readType(readBuffer)) {
                    continue;
                }
                classify(s);
            }
            s.receive(readBuffer);
        }
    }

    private void classify(PeerUniStream s) throws H3Exception {
        long type = s.type();
        if (type == UniStreamType.CONTROL) {
            peerControlSeen = once(peerControlSeen, s);
            s.becomeControl(new ControlStreamReceiver(transport.isClient(), new ControlStreamReceiver.Listener() {
                private long lastGoaway = Long.MAX_VALUE;

                @Override
                public void onSettings(H3Frame.Settings settings) {
                    peerSettings = settings;
                }

                @Override
                public void onGoaway(long id) throws H3Exception {
                    if (id > lastGoaway) {
                        throw new H3Exception(H3Error.H3_ID_ERROR, "GOAWAY identifier went up from " + lastGoaway
                                + " to " + id + " (RFC 9114 §5.2)");
                    }
                    lastGoaway = id;
                    goawayReceived(id);
                }
            }));
        } else if (type == UniStreamType.QPACK_ENCODER) {
            peerEncoderSeen = once(peerEncoderSeen, s);
            s.becomeEncoder();
        } else if (type == UniStreamType.QPACK_DECODER) {
            peerDecoderSeen = once(peerDecoderSeen, s);
            s.becomeDecoder();
        } else if (type == UniStreamType.PUSH) {
            if (!transport.isClient()) {
                throw new H3Exception(H3Error.H3_STREAM_CREATION_ERROR, "the client opened push stream " + s.id
                        + "; only servers push (RFC 9114 §6.2.2)");
            }
            throw new H3Exception(H3Error.H3_ID_ERROR, "the server opened push stream " + s.id
                    + ", but we never sent MAX_PUSH_ID, so no push ID is valid (RFC 9114 §4.6)");
        } else {
            // Unknown or reserved type: abort reading (RFC 9114 §6.2, §9).
            transport.stopSending(s.id, H3Error.H3_STREAM_CREATION_ERROR.code);
        }
    }

    private boolean once(boolean seen, PeerUniStream s) throws H3Exception {
        if (seen) {
            throw new H3Exception(H3Error.H3_STREAM_CREATION_ERROR, "the peer opened a second "
                    + UniStreamType.name(s.type()) + " stream (" + s.id + "); only one is allowed"
                    + " (RFC 9114 §6.2.1, RFC 9204 §4.2)");
        }
        return true;
    }

    private void peerUniStreamEnded(PeerUniStream s) {
        peerUniStreams.remove(s.id);
        if (s.isCritical()) {
            fail(new H3Exception(H3Error.H3_CLOSED_CRITICAL_STREAM, "the peer closed its "
                    + UniStreamType.name(s.type()) + " stream " + s.id + ", which must stay open (RFC 9114 §6.2.1)"));
        }
    }
}
