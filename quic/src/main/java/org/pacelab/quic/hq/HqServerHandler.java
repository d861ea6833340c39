package org.pacelab.quic.hq;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.pacelab.quic.app.ApplicationHandler;
import org.pacelab.quic.app.ConnectionEnd;
import org.pacelab.quic.app.StreamTransport;
import org.pacelab.quic.content.ChunkPool;
import org.pacelab.quic.content.ContentSource;
import org.pacelab.quic.content.ServedRequest;

/**
 * The hq-interop server of one connection (HTTP/0.9 over QUIC, ALPN {@code hq-interop}): each
 * client-initiated bidirectional stream carries {@code GET /path} and gets the body and FIN, or a
 * RESET_STREAM with an {@link HqError} code when the path is refused.
 */
public final class HqServerHandler implements ApplicationHandler {
    /** The ALPN protocol identifier used by the QUIC Interop Runner for HTTP/0.9. */
    public static final String ALPN = "hq-interop";

    private final ContentSource content;
    private final Consumer<ServedRequest> log;
    private final ChunkPool pool = new ChunkPool(64 * 1024, 16);
    private final ByteBuffer readBuffer = ByteBuffer.allocateDirect(16 * 1024);
    private final Map<Long, HqServerStream> streams = new HashMap<>();
    private final BitSet retired = new BitSet();
    private StreamTransport transport;
    private boolean closed;

    public HqServerHandler(ContentSource content, Consumer<ServedRequest> log) {
        this.content = content;
        this.log = log;
    }

    public HqServerHandler(ContentSource content) {
        this(content, r -> { });
    }

    @Override
    public void onConnected(StreamTransport transport) {
        this.transport = transport;
    }

    @Override
    public void onPeerStreamOpened(long streamId) {
        if (!closed) {
            stream(streamId);
        }
    }

    @Override
    public void onStreamReadable(long streamId) {
        if (closed) {
            return;
        }
        HqServerStream s = stream(streamId);
        if (s == null) {
            drain(streamId);
            return;
        }
        s.readable(readBuffer);
        retireIfDone(streamId, s);
    }

    @Override
    public void onStreamWritable(long streamId) {
        onStream(streamId, HqServerStream::writable);
    }

    @Override
    public void onStreamComplete(long streamId) {
        onStream(streamId, HqServerStream::acked);
    }

    @Override
    public void onStreamReset(long streamId, long applicationErrorCode) {
        onStream(streamId, HqServerStream::peerReset);
    }

    @Override
    public void onStopSending(long streamId, long applicationErrorCode) {
        onStream(streamId, s -> s.stopSending(applicationErrorCode));
    }

    @Override
    public void onClosed(long errorCode, boolean application, String reason) {
        if (closed) {
            return;
        }
        closed = true;
        String why = ConnectionEnd.describe(errorCode, application, reason,
                code -> "application error " + HqError.nameOf(code));
        for (HqServerStream s : new ArrayList<>(streams.values())) {
            s.connectionEnded(why);
        }
        streams.clear();
    }

    /** The stream's state; null for unidirectional streams (hq-interop uses none) and retired streams. */
    private HqServerStream stream(long streamId) {
        if ((streamId & 0x3) != 0) {
            return null;
        }
        HqServerStream s = streams.get(streamId);
        int slot = (int) Math.min(streamId >>> 2, Integer.MAX_VALUE - 1);
        if (s == null && !retired.get(slot)) {
            s = new HqServerStream(streamId, transport, content, pool, log);
            streams.put(streamId, s);
        }
        return s;
    }

    /** Hands a stream event to the stream's state while the connection is open, then retires the stream when done. */
    private void onStream(long streamId, Consumer<HqServerStream> event) {
        HqServerStream s = streams.get(streamId);
        if (s != null && !closed) {
            event.accept(s);
            retireIfDone(streamId, s);
        }
    }

    private void retireIfDone(long streamId, HqServerStream s) {
        if (s.done()) {
            streams.remove(streamId);
            retired.set((int) Math.min(streamId >>> 2, Integer.MAX_VALUE - 1));
        }
    }

    private void drain(long streamId) {
        while (true) {
            readBuffer.clear();
            if (transport.read(streamId, readBuffer) <= 0) {
                return;
            }
        }
    }
}
