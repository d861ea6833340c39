package org.pacelab.quic.hq;

import java.nio.ByteBuffer;
import java.util.function.Consumer;
import org.pacelab.quic.app.StreamTransport;
import org.pacelab.quic.content.ChunkPool;
import org.pacelab.quic.content.Content;
import org.pacelab.quic.content.ContentSource;
import org.pacelab.quic.content.RequestReader;
import org.pacelab.quic.content.ServedRequest;
import org.pacelab.quic.content.ServerResponse;
import org.pacelab.quic.content.Printable;

/** One hq-interop request stream on the server: a request line in, the body and FIN (or a reset) out. */
final class HqServerStream {
    private final long streamId;
    private final StreamTransport transport;
    private final ContentSource content;
    private final ServerResponse response;
    private final RequestReader request;
    private final StringBuilder line = new StringBuilder();
    private boolean requestRead;

    HqServerStream(long streamId, StreamTransport transport, ContentSource content, ChunkPool pool,
            Consumer<ServedRequest> log) {
        this.streamId = streamId;
        this.transport = transport;
        this.content = content;
        this.response = new ServerResponse(streamId, transport, pool, log, HqError.INTERNAL_ERROR.code);
        response.describeRequest("GET", "");
        this.request = new RequestReader(streamId, transport, HqError.NO_ERROR.code);
    }

    void readable(ByteBuffer buffer) {
        while (!request.ended()) {
            int n = request.read(buffer);
            if (n == 0) {
                return;
            }
            if (n < 0) {
                if (!requestRead) {
                    requestLine(line.toString());
                }
                return;
            }
            while (!requestRead && buffer.hasRemaining()) {
                char c = (char) (buffer.get() & 0xff);
                if (c == '\n') {
                    requestLine(line.toString());
                } else if (line.length() == HqRequestLine.MAX_LENGTH) {
                    refuse(HqError.BAD_REQUEST, 0, "the request line is longer than " + HqRequestLine.MAX_LENGTH
                            + " bytes");
                    transport.stopSending(streamId, HqError.BAD_REQUEST.code);
                    request.end();
                } else {
                    line.append(c);
                }
            }
        }
    }

    void writable() {
        response.writable();
    }

    void acked() {
        response.acked();
    }

    void peerReset() {
        request.end();
        if (!requestRead) {
            requestRead = true;
            // hq-interop has no status line: the log names 200 unless a refusal maps to another status
            response.refuse(HqError.BAD_REQUEST.code, 200, "the client reset the stream before sending a request line");
        }
    }

    void stopSending(long code) {
        if (response.sending()) {
            response.abort(code, "the client sent STOP_SENDING with " + HqError.nameOf(code));
        } else if (!response.started() && !response.settled()) {
            response.resetUnlogged(code);
        }
    }

    void connectionEnded(String why) {
        response.connectionEnded(why);
    }

    /** Whether the stream needs nothing more: the request side ended and the response is settled. */
    boolean done() {
        return request.doneWith(response);
    }

    private void requestLine(String text) {
        requestRead = true;
        String path;
        try {
            path = HqRequestLine.parsePath(text);
        } catch (IllegalArgumentException e) {
            response.describeRequest("GET", Printable.of(text));
            refuse(HqError.BAD_REQUEST, 400, e.getMessage());
            return;
        }
        response.describeRequest("GET", path);
        switch (content.open(path)) {
            case Content.Refused r -> refuse(HqError.forStatus(r.status()), r.status(), r.reason());
            case Content.Found f -> response.send(200, ByteBuffer.allocate(0), f.body(), null);
        }
    }

    private void refuse(HqError error, int status, String reason) {
        requestRead = true;
        response.refuse(error.code, status, reason);
    }
}
