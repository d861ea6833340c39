package org.pacelab.quic.h3;

import java.nio.ByteBuffer;

/**
 * The peer's control stream (RFC 9114 §6.2.1): SETTINGS first and only once, then GOAWAY, MAX_PUSH_ID,
 * CANCEL_PUSH and unknown frames; frames that belong on request streams are refused. Pushes are never
 * enabled here (no MAX_PUSH_ID is ever sent), which decides what a CANCEL_PUSH can mean.
 */
final class ControlStreamReceiver implements FrameReader.Sink {
    /** What the endpoint learns from the peer's control stream. */
    interface Listener {
        void onSettings(H3Frame.Settings settings) throws H3Exception;

        void onGoaway(long id) throws H3Exception;
    }

    /** The largest control frame payload collected (SETTINGS carries a few dozen bytes in practice). */
    static final int MAX_FRAME_PAYLOAD = 16 * 1024;

    private final boolean peerIsServer;
    private final Listener listener;
    private final FrameReader frames = new FrameReader(MAX_FRAME_PAYLOAD);
    private boolean settingsReceived;
    private long maxPushId = -1;

    ControlStreamReceiver(boolean peerIsServer, Listener listener) {
        this.peerIsServer = peerIsServer;
        this.listener = listener;
    }

    void receive(ByteBuffer data) throws H3Exception {
        frames.consume(data, this);
    }

    @Override
    public void frameStarted(long type, long length) throws H3Exception {
        if (!settingsReceived && type != FrameType.SETTINGS) {
            throw new H3Exception(H3Error.H3_MISSING_SETTINGS, "the peer's control stream starts with "
                    + FrameType.name(type) + " instead of SETTINGS (RFC 9114 §6.2.1)");
        }
        if (type == FrameType.DATA || type == FrameType.HEADERS || type == FrameType.PUSH_PROMISE) {
            throw new H3Exception(H3Error.H3_FRAME_UNEXPECTED, FrameType.name(type) + " at control stream offset "
                    + frames.frameStart() + " is only allowed on request or push streams (RFC 9114 §7.2)");
        }
        if (type == FrameType.SETTINGS && settingsReceived) {
            throw new H3Exception(H3Error.H3_FRAME_UNEXPECTED, "second SETTINGS frame at control stream offset "
                    + frames.frameStart() + " (RFC 9114 §7.2.4)");
        }
        if (type == FrameType.MAX_PUSH_ID && peerIsServer) {
            throw new H3Exception(H3Error.H3_FRAME_UNEXPECTED, "the server sent MAX_PUSH_ID, which only clients"
                    + " send (RFC 9114 §7.2.7)");
        }
    }

    @Override
    public void dataPayload(ByteBuffer payload) {
        throw new IllegalStateException("DATA is refused in frameStarted");
    }

    @Override
    public void frameComplete(H3Frame frame) throws H3Exception {
        switch (frame) {
            case H3Frame.Settings s -> {
                settingsReceived = true;
                listener.onSettings(s);
            }
            case H3Frame.Goaway g -> listener.onGoaway(g.id());
            case H3Frame.MaxPushId m -> {
                if (m.pushId() < maxPushId) {
                    throw new H3Exception(H3Error.H3_ID_ERROR, "MAX_PUSH_ID went down from " + maxPushId + " to "
                            + m.pushId() + " (RFC 9114 §7.2.7)");
                }
                maxPushId = m.pushId();
            }
            case H3Frame.CancelPush c -> throw new H3Exception(H3Error.H3_ID_ERROR, "CANCEL_PUSH for push ID "
                    + c.pushId() + (peerIsServer
                            ? ", but we never allowed pushes with MAX_PUSH_ID (RFC 9114 §7.2.3)"
                            : ", but we never promised a push (RFC 9114 §7.2.3)"));
            case H3Frame.Headers h -> throw new IllegalStateException("HEADERS is refused in frameStarted");
            case H3Frame.PushPromise p -> throw new IllegalStateException("PUSH_PROMISE is refused in frameStarted");
        }
    }
}
