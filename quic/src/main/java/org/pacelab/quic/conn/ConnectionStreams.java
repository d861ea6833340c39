package org.pacelab.quic.conn;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.function.LongConsumer;

import org.pacelab.quic.QuicException;
import org.pacelab.quic.TransportError;
import org.pacelab.quic.TransportParameters;
import org.pacelab.quic.app.ApplicationHandler;
import org.pacelab.quic.frame.DataBlockedFrame;
import org.pacelab.quic.frame.Frame;
import org.pacelab.quic.frame.FrameType;
import org.pacelab.quic.frame.MaxDataFrame;
import org.pacelab.quic.frame.MaxStreamDataFrame;
import org.pacelab.quic.frame.MaxStreamsFrame;
import org.pacelab.quic.frame.ResetStreamFrame;
import org.pacelab.quic.frame.StopSendingFrame;
import org.pacelab.quic.frame.StreamDataBlockedFrame;
import org.pacelab.quic.frame.StreamFrame;
import org.pacelab.quic.frame.StreamFrameHeader;
import org.pacelab.quic.frame.StreamsBlockedFrame;
import org.pacelab.quic.stream.QuicStream;
import org.pacelab.quic.stream.SendBuffer;
import org.pacelab.quic.stream.StreamDataSent;
import org.pacelab.quic.stream.StreamId;
import org.pacelab.quic.stream.StreamLimits;
import org.pacelab.quic.stream.StreamManager;

/**
 * The connection's streams and their flow control (RFC 9000 §2–4), as quinn's {@code StreamsState}: the stream frames
 * the peer sends (STREAM, RESET_STREAM, STOP_SENDING, MAX_DATA, MAX_STREAM_DATA, MAX_STREAMS, DATA_BLOCKED,
 * STREAM_DATA_BLOCKED; §19.4–19.14), what becomes of sent stream data when it is acknowledged or lost, the
 * application's reads and writes, and the STREAM frames and stream-related control frames written into a 1-RTT
 * packet. Control frames wait in the connection's {@link PendingFrames}; what the application is to hear waits in its
 * {@link ApplicationEvents}.
 */
final class ConnectionStreams {
    /** Room below which no further STREAM frame is started (a header is at most 19 bytes, plus some data). */
    static final int MAX_STREAM_HEADER = 24;

    private final boolean isClient;
    private final StreamManager streams;
    private final ConnectionFlowControl flow;
    private final PendingFrames pending;
    private final ApplicationHandler app;
    private final ApplicationEvents events;
    /** {@link #onPeerStreamOpened}, made once rather than for every frame that names a stream. */
    private final LongConsumer peerStreamOpened = this::onPeerStreamOpened;

    ConnectionStreams(boolean isClient, StreamLimits limits, PendingFrames pending, ApplicationHandler app,
                      ApplicationEvents events) {
        this.isClient = isClient;
        this.streams = new StreamManager(isClient, limits);
        this.flow = new ConnectionFlowControl(limits.initialMaxData(), limits.maxConnectionWindow());
        this.pending = pending;
        this.app = app;
        this.events = events;
    }

    /**
     * The peer's limits: from its transport parameters (RFC 9000 §18.2), or, for 0-RTT, those it announced in the
     * connection the session ticket came from (§7.4.1).
     */
    void onPeerTransportParameters(TransportParameters tp) {
        streams.setPeerLimits(tp.initialMaxStreamDataBidiLocal(), tp.initialMaxStreamDataBidiRemote(),
                tp.initialMaxStreamDataUni(), tp.initialMaxStreamsBidi(), tp.initialMaxStreamsUni());
        flow.setPeerMaxData(tp.initialMaxData());
    }

    // ---------------------------------------------------------------------------------------------
    // Frames received
    // ---------------------------------------------------------------------------------------------

    /** A stream or flow-control frame from the peer. */
    void onFrame(Frame f) throws QuicException {
        switch (f) {
            case StreamFrame s -> onStreamFrame(s);
            case ResetStreamFrame r -> onResetStream(r);
            case StopSendingFrame s -> onStopSending(s);
            case MaxDataFrame m -> onMaxData(m);
            case MaxStreamDataFrame m -> onMaxStreamData(m);
            case MaxStreamsFrame m -> {
                if (streams.onMaxStreams(m.bidirectional(), m.max())) {
                    pending.streamsBlocked(m.bidirectional(), false);
                    events.add(app::onStreamsAvailable);
                }
            }
            case DataBlockedFrame ignored -> {
                if (flow.receive().updateNeeded() && flow.onConsumed(0)) {
                    pending.maxData = true;
                }
            }
            case StreamDataBlockedFrame b -> {
                if (!StreamId.canReceive(b.streamId(), isClient)) {
                    throw new QuicException(TransportError.STREAM_STATE_ERROR, f.type(),
                            "STREAM_DATA_BLOCKED for send-only stream " + b.streamId());
                }
            }
            case StreamsBlockedFrame ignored -> { }
            default -> throw new IllegalArgumentException("not a stream frame: " + f);
        }
    }

    private void onStreamFrame(StreamFrame s) throws QuicException {
        onStreamData(new StreamFrameHeader(s.streamId(), s.offset(), s.data().length, s.fin()), ByteBuffer.wrap(s.data()), 0);
    }

    /**
     * A STREAM frame whose data is at index {@code data} of {@code src} (a view of the decrypted packet; its position is
     * not moved): the stream's checks (RFC 9000 §4.1, §4.5) and its copy of the data, then the connection's flow
     * control (§4.1: the sum of the streams' highest offsets must stay within MAX_DATA, else FLOW_CONTROL_ERROR).
     */
    void onStreamData(StreamFrameHeader h, ByteBuffer src, int data) throws QuicException {
        checkStreamDirection(h.streamId(), false, FrameType.STREAM);
        QuicStream stream = streams.streamForPeerFrame(h.streamId(), FrameType.STREAM, peerStreamOpened);
        if (stream == null) {
            return;
        }
        long delta = stream.onStreamFrame(h.offset(), src, data, h.length(), h.fin());
        if (!flow.receive().onReceivedMore(delta)) {
            throw new QuicException(TransportError.FLOW_CONTROL_ERROR, FrameType.STREAM, "connection flow-control limit "
                    + flow.receive().limit() + " exceeded (RFC 9000 §4.1)");
        }
        if (stream.isReadable()) {
            events.readable(stream.id);
        }
    }

    private void onResetStream(ResetStreamFrame r) throws QuicException {
        checkStreamDirection(r.streamId(), false, FrameType.RESET_STREAM);
        QuicStream stream = streams.streamForPeerFrame(r.streamId(), FrameType.RESET_STREAM, peerStreamOpened);
        if (stream == null) {
            return;
        }
        long readBefore = stream.bytesRead();
        boolean wasReset = stream.recvState() == QuicStream.RecvState.RESET_RECVD
                || stream.recvState() == QuicStream.RecvState.RESET_READ;
        long delta = stream.onResetStream(r.errorCode(), r.finalSize());
        if (!flow.receive().onReceivedMore(delta)) {
            throw new QuicException(TransportError.FLOW_CONTROL_ERROR, FrameType.RESET_STREAM, "connection flow-control limit exceeded");
        }
        if (!wasReset) {
            // bytes up to the final size that the application will never read are released from the
            // connection window (RFC 9000 §4.5)
            if (flow.onConsumed(Math.max(0, r.finalSize() - readBefore))) {
                pending.maxData = true;
            }
        }
        if (stream.takePeerReset()) {
            long id = stream.id;
            long code = r.errorCode();
            events.add(() -> app.onStreamReset(id, code));
        }
        maybeForget(stream);
    }

    private void onStopSending(StopSendingFrame s) throws QuicException {
        checkStreamDirection(s.streamId(), true, FrameType.STOP_SENDING);
        QuicStream stream = streams.streamForPeerFrame(s.streamId(), FrameType.STOP_SENDING, peerStreamOpened);
        if (stream == null) {
            return;
        }
        if (stream.onStopSending(s.errorCode())) {
            pending.resetStream.add(stream.id);
        }
        long id = stream.id;
        long code = s.errorCode();
        events.add(() -> app.onStopSending(id, code));
    }

    private void onMaxData(MaxDataFrame m) {
        long before = flow.sendCredit();
        if (flow.setPeerMaxData(m.max())) {
            pending.dataBlocked = false;
        }
        if (before == 0 && flow.sendCredit() > 0) {
            // streams blocked by connection flow control left the send queue (see writeStreams)
            for (QuicStream s : streams.all()) {
                if (s.hasDataToSend()) {
                    streams.markSendable(s);
                }
            }
        }
    }

    private void onMaxStreamData(MaxStreamDataFrame m) throws QuicException {
        checkStreamDirection(m.streamId(), true, FrameType.MAX_STREAM_DATA);
        QuicStream stream = streams.streamForPeerFrame(m.streamId(), FrameType.MAX_STREAM_DATA, peerStreamOpened);
        if (stream == null) {
            return;
        }
        if (stream.onMaxStreamData(m.max())) {
            pending.streamDataBlocked.remove(stream.id);
            if (stream.hasDataToSend()) {
                streams.markSendable(stream);
            }
        }
    }

    /** RFC 9000 §19.4–19.11: frames about sending must name streams we can send on, and vice versa. */
    private void checkStreamDirection(long id, boolean weSend, long frameType) throws QuicException {
        boolean ok = weSend ? StreamId.canSend(id, isClient) : StreamId.canReceive(id, isClient);
        if (!ok) {
            throw new QuicException(TransportError.STREAM_STATE_ERROR, frameType,
                    FrameType.name(frameType) + " for stream " + id + " which " + (weSend ? "we cannot send on" : "the peer cannot send on"));
        }
    }

    private void onPeerStreamOpened(long id) {
        events.add(() -> app.onPeerStreamOpened(id));
    }

    // ---------------------------------------------------------------------------------------------
    // Sent data acknowledged or lost (RFC 9000 §13.3)
    // ---------------------------------------------------------------------------------------------

    void onDataAcked(StreamDataSent s) {
        QuicStream stream = streams.get(s.streamId());
        if (stream != null && stream.onDataAcked(s.offset(), s.length(), s.fin())) {
            long id = stream.id;
            events.add(() -> app.onStreamComplete(id));
            maybeForget(stream);
        }
    }

    void onResetAcked(ResetStreamFrame r) {
        QuicStream stream = streams.get(r.streamId());
        if (stream != null) {
            stream.onResetAcked();
            maybeForget(stream);
        }
    }

    /** The range is sent again (lost ranges go first, see {@link SendBuffer}). */
    void onDataLost(StreamDataSent s) {
        QuicStream stream = streams.get(s.streamId());
        if (stream != null) {
            stream.onDataLost(s.offset(), s.length(), s.fin());
            if (stream.hasDataToSend()) {
                streams.markSendable(stream);
            }
        }
    }

    /** After an ACK: the application hears of every stream with room again in its send buffer. */
    void reportWritable() {
        for (QuicStream s : streams.all()) {
            if (s.takeWritable()) {
                long id = s.id;
                events.add(() -> app.onStreamWritable(id));
            }
        }
    }

    private void maybeForget(QuicStream s) {
        if (s.isFinished()) {
            if (streams.remove(s)) {
                pending.maxStreams(StreamId.isBidirectional(s.id));
            }
            events.forget(s.id);
            pending.forgetStream(s.id);
        }
    }

    // ---------------------------------------------------------------------------------------------
    // The application's side (StreamTransport)
    // ---------------------------------------------------------------------------------------------

    long open(boolean bidirectional) {
        QuicStream s = streams.open(bidirectional);
        if (s == null) {
            pending.streamsBlocked(bidirectional, true);
            return -1;
        }
        return s.id;
    }

    /** Writes what the stream's send buffer takes; -1 for a stream we cannot send on. */
    int write(long streamId, ByteBuffer data, boolean fin) {
        QuicStream s = streams.get(streamId);
        if (s == null || !s.canSend()) {
            return -1;
        }
        int n = s.write(data, fin);
        if (s.hasDataToSend()) {
            streams.markSendable(s);
        }
        return n;
    }

    void finish(long streamId) {
        QuicStream s = streams.get(streamId);
        if (s != null) {
            s.finish();
            if (s.hasDataToSend()) {
                streams.markSendable(s);
            }
        }
    }

    int read(long streamId, ByteBuffer dst) {
        QuicStream s = streams.get(streamId);
        if (s == null) {
            return -1;
        }
        int n = s.read(dst);
        if (n > 0) {
            if (flow.onConsumed(n)) {
                pending.maxData = true;
            }
            if (s.windowUpdateNeeded()) {
                pending.maxStreamData.add(streamId);
            }
        }
        maybeForget(s);
        return n;
    }

    void reset(long streamId, long applicationErrorCode) {
        QuicStream s = streams.get(streamId);
        if (s != null && s.reset(applicationErrorCode)) {
            pending.resetStream.add(streamId);
        }
    }

    void stopSending(long streamId, long applicationErrorCode) {
        QuicStream s = streams.get(streamId);
        if (s != null && s.stopSending(applicationErrorCode)) {
            pending.stopSending.add(streamId);
        }
    }

    /** Whether the stream exists and has data for the application to read. */
    boolean isReadable(long streamId) {
        QuicStream s = streams.get(streamId);
        return s != null && s.isReadable();
    }

    /** Whether a stream we opened still expects data from the peer (a request whose response has not fully arrived). */
    boolean awaitingPeerData() {
        for (QuicStream s : streams.all()) {
            if (StreamId.isLocal(s.id, isClient) && StreamId.isBidirectional(s.id) && s.peerMaySend()) {
                return true;
            }
        }
        return false;
    }

    // ---------------------------------------------------------------------------------------------
    // Frames sent
    // ---------------------------------------------------------------------------------------------

    /** Whether a stream has data it may send now (within connection flow control, or lost data, or a bare FIN). */
    boolean dataWaiting() {
        for (QuicStream s : streams.sendQueue()) {
            if (s.hasDataToSend() && (flow.sendCredit() > 0 || s.sendBuffer().hasLost()
                    || s.sendBuffer().unsent() == 0)) {
                return true;
            }
        }
        return false;
    }

    /** Whether no stream waits to send (the sender runs dry). */
    boolean sendQueueEmpty() {
        return streams.sendQueue().isEmpty();
    }

    /** The credit we give the peer (RFC 9000 §4.1, §4.6): MAX_DATA, MAX_STREAM_DATA, MAX_STREAMS, STREAMS_BLOCKED. */
    void writeCreditFrames(PacketBuilder b, long now, long smoothedRtt) {
        // asked for every packet: return before creating iterators when nothing waits (3 % of a bulk sender's loop)
        if (!pending.maxData && pending.maxStreamData.isEmpty() && !pending.maxStreamsBidi && !pending.maxStreamsUni
                && !pending.streamsBlockedBidi && !pending.streamsBlockedUni) {
            return;
        }
        if (pending.maxData && b.remaining() >= 9) {
            b.write(new MaxDataFrame(flow.maxDataUpdate(now, smoothedRtt)));
            pending.maxData = false;
        }
        for (var it = pending.maxStreamData.iterator(); it.hasNext() && b.remaining() >= 17; ) {
            long id = it.next();
            it.remove();
            QuicStream s = streams.get(id);
            if (s != null && s.canReceive()) {
                b.write(new MaxStreamDataFrame(id, s.receiveWindow().update(now, smoothedRtt)));
            }
        }
        for (boolean bidi : new boolean[] {true, false}) {
            if ((bidi ? pending.maxStreamsBidi : pending.maxStreamsUni) && b.remaining() >= 9) {
                b.write(new MaxStreamsFrame(bidi, streams.advertiseMaxStreams(bidi)));
                if (bidi) {
                    pending.maxStreamsBidi = false;
                } else {
                    pending.maxStreamsUni = false;
                }
            }
            if ((bidi ? pending.streamsBlockedBidi : pending.streamsBlockedUni) && b.remaining() >= 9) {
                b.write(new StreamsBlockedFrame(bidi, streams.peerMaxStreams(bidi)));
                pending.streamsBlocked(bidi, false);
            }
        }
    }

    /** DATA_BLOCKED, RESET_STREAM, STOP_SENDING and STREAM_DATA_BLOCKED waiting to be sent. */
    void writeSignalFrames(PacketBuilder b) {
        if (!pending.dataBlocked && pending.resetStream.isEmpty() && pending.stopSending.isEmpty()
                && pending.streamDataBlocked.isEmpty()) {
            return;
        }
        if (pending.dataBlocked && b.remaining() >= 9) {
            b.write(new DataBlockedFrame(flow.peerMaxData()));
            pending.dataBlocked = false;
        }
        for (var it = pending.resetStream.iterator(); it.hasNext() && b.remaining() >= 25; ) {
            QuicStream s = streams.get(it.next());
            it.remove();
            if (s != null && s.resetUnacknowledged()) {
                b.write(new ResetStreamFrame(s.id, s.resetCode(), s.resetFinalSize()));
            }
        }
        for (var it = pending.stopSending.iterator(); it.hasNext() && b.remaining() >= 17; ) {
            QuicStream s = streams.get(it.next());
            it.remove();
            if (s != null && s.peerMaySend()) {
                b.write(new StopSendingFrame(s.id, s.stopSendingCode()));
                s.stopSendingSent();
            }
        }
        for (var it = pending.streamDataBlocked.iterator(); it.hasNext() && b.remaining() >= 17; ) {
            QuicStream s = streams.get(it.next());
            it.remove();
            if (s != null) {
                b.write(new StreamDataBlockedFrame(s.id, s.sendLimit()));
            }
        }
    }

    /**
     * STREAM frames, round-robin over streams with something to send (one frame per stream per turn); returns
     * whether any stream data was written.
     */
    boolean writeStreams(PacketBuilder b) {
        ByteBuffer payload = b.payload();
        ArrayDeque<QuicStream> queue = streams.sendQueue();
        int turns = queue.size();
        boolean wroteData = false;
        while (turns-- > 0 && payload.remaining() > MAX_STREAM_HEADER && !queue.isEmpty()) {
            QuicStream s = queue.pollFirst();
            if (s.hasDataToSend()) {
                SendBuffer buf = s.sendBuffer();
                long flowLimit = Math.min(s.sendLimit(), buf.sentOffset() + flow.sendCredit());
                // the largest STREAM header a piece can need: its offset is at most the next unsent one (lost
                // ranges lie below it) and its length at most the room
                int room = payload.remaining();
                int header = StreamFrame.headerLength(s.id, buf.sentOffset(), room);
                int maxData = room - header;
                SendBuffer.Piece piece = buf.next(maxData, flowLimit);
                if (piece != null) {
                    StreamFrame.encodeHeader(payload, s.id, piece.offset(), piece.length(), piece.fin());
                    buf.copy(piece.offset(), piece.length(), payload);
                    b.record(new StreamDataSent(s.id, piece.offset(), piece.length(), piece.fin()));
                    wroteData = true;
                    if (!piece.retransmission()) {
                        flow.onNewDataSent(piece.length());
                    }
                    if (piece.fin()) {
                        s.onFinSent();
                    }
                } else {
                    if (s.noteFlowBlocked()) {
                        pending.streamDataBlocked.add(s.id);
                    }
                    if (flow.sendCredit() == 0 && flow.noteBlocked()) {
                        pending.dataBlocked = true;
                    }
                }
            }
            if (s.hasDataToSend() && (flow.sendCredit() > 0 || s.sendBuffer().hasLost())) {
                queue.addLast(s);
            } else if (s.hasDataToSend() && flow.noteBlocked()) {
                // blocked by connection flow control: wait for MAX_DATA (onMaxData puts it back in the queue)
                pending.dataBlocked = true;
            }
        }
        return wroteData;
    }
}
