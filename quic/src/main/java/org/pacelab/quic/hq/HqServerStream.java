package org.pacelab.quic.hq;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.function.Consumer;
import org.pacelab.quic.app.StreamTransport;
import org.pacelab.quic.content.BodySender;
import org.pacelab.quic.content.ChunkPool;
import org.pacelab.quic.content.Content;
import org.pacelab.quic.content.ContentSource;
import org.pacelab.quic.content.ServedRequest;
import org.pacelab.quic.content.Printable;

/** One hq-interop request stream on the server: a request line in, the body and FIN (or a reset) out. */
final class HqServerStream {
    private final long streamId;
    private final StreamTransport transport;
    private final ContentSource content;
    private final ChunkPool pool;
    private final Consumer<ServedRequest> log;
    private final StringBuilder line = new StringBuilder();
    private boolean requestRead;
    private boolean readDone;
    private BodySender sender;
    private boolean settled;
    private String target = "";
    private long bodyLength;
    private boolean reported;

    HqServerStream(long streamId, StreamTransport transport, ContentSource content, ChunkPool pool,
            Consumer<ServedRequest> log) {
        this.streamId = streamId;
        this.transport = transport;
        this.content = content;
        this.pool = pool;
        this.log = log;
    }

    void readable(ByteBuffer buffer) {
        while (!readDone) {
            buffer.clear();
            int n = transport.read(streamId, buffer);
            if (n == 0) {
                return;
            }
            if (n < 0) {
                readDone = true;
                if (!requestRead) {
                    requestLine(line.toString());
                }
                return;
            }
            buffer.flip();
            while (!requestRead && buffer.hasRemaining()) {
                char c = (char) (buffer.get() & 0xff);
                if (c == '\n') {
                    requestLine(line.toString());
                } else if (line.length() == HqRequestLine.MAX_LENGTH) {
                    refuse(HqError.BAD_REQUEST, 0, "the request line is longer than " + HqRequestLine.MAX_LENGTH
                            + " bytes");
                    transport.stopSending(streamId, HqError.BAD_REQUEST.code);
                    readDone = true;
                } else {
                    line.append(c);
                }
            }
        }
    }

    void writable() {
        if (sender == null || settled) {
            return;
        }
        try {
            if (sender.resume()) {
                report(null);
            }
        } catch (IOException e) {
            abort(HqError.INTERNAL_ERROR.code, "reading the body failed: " + e.getMessage());
        }
    }

    void acked() {
        settled = true;
    }

    void peerReset() {
        readDone = true;
        if (!requestRead) {
            requestRead = true;
            settled = true;
            transport.resetStream(streamId, HqError.BAD_REQUEST.code);
            report("the client reset the stream before sending a request line");
        }
    }

    void stopSending(long code) {
        if (sender != null && !sender.finished()) {
            abort(code, "the client sent STOP_SENDING with " + HqError.nameOf(code));
        } else if (sender == null && !settled) {
            settled = true;
            transport.resetStream(streamId, code);
        }
    }

    void connectionEnded(String why) {
        if (sender != null && !sender.finished()) {
            sender.abort();
            report("the connection ended before the response was sent: " + why);
        }
    }

    /** Whether the stream needs nothing more: the request side ended and the response is settled. */
    boolean done() {
        if (settled && !readDone) {
            transport.stopSending(streamId, HqError.NO_ERROR.code);
            readDone = true;
        }
        return readDone && settled;
    }

    private void requestLine(String text) {
        requestRead = true;
        String path;
        try {
            path = HqRequestLine.parsePath(text);
        } catch (IllegalArgumentException e) {
            target = Printable.of(text);
            refuse(HqError.BAD_REQUEST, 400, e.getMessage());
            return;
        }
        target = path;
        switch (content.open(path)) {
            case Content.Refused r -> refuse(HqError.forStatus(r.status()), r.status(), r.reason());
            case Content.Found f -> {
                bodyLength = f.body().length();
                sender = new BodySender(transport, streamId, pool, ByteBuffer.allocate(0), f.body());
                try {
                    if (sender.start()) {
                        report(null);
                    }
                } catch (IOException e) {
                    abort(HqError.INTERNAL_ERROR.code, "reading the body failed: " + e.getMessage());
                }
            }
        }
    }

    private void refuse(HqError error, int status, String reason) {
        requestRead = true;
        settled = true;
        transport.resetStream(streamId, error.code);
        reported = true;
        log.accept(new ServedRequest(streamId, "GET", target, status, 0, reason));
    }

    private void abort(long code, String reason) {
        sender.abort();
        settled = true;
        transport.resetStream(streamId, code);
        report(reason);
    }

    private void report(String error) {
        if (!reported) {
            reported = true;
            log.accept(new ServedRequest(streamId, "GET", target, 200, bodyLength, error));
        }
    }
}
