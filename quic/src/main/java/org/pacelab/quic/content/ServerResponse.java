package org.pacelab.quic.content;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.function.Consumer;
import org.pacelab.quic.app.StreamTransport;

/**
 * The response half of one server request stream, for HTTP/3 and hq-interop alike: streams a prefix and a
 * {@link Body} with a {@link BodySender} under the stream's flow control, resets the stream when the response is
 * abandoned (RFC 9000 §3.1), tracks when nothing of the response remains to be acknowledged, and logs what was
 * served exactly once as a {@link ServedRequest}.
 */
public final class ServerResponse {
    private final long streamId;
    private final StreamTransport transport;
    private final ChunkPool pool;
    private final Consumer<ServedRequest> log;
    private final long internalErrorCode;
    private BodySender sender;
    /** Nothing of the response remains to be acknowledged (acked, reset, or never sent). */
    private boolean settled;
    private boolean reported;
    private String method = "";
    private String target = "";
    private int status;
    private long bodyLength;
    /** What the log says of a response sent completely: null, or why the request was refused. */
    private String completedNote;

    /**
     * @param internalErrorCode the application error code that resets the stream when the body cannot be read
     */
    public ServerResponse(long streamId, StreamTransport transport, ChunkPool pool, Consumer<ServedRequest> log,
            long internalErrorCode) {
        this.streamId = streamId;
        this.transport = transport;
        this.pool = pool;
        this.log = log;
        this.internalErrorCode = internalErrorCode;
    }

    /** The request's method and target as the log should name them. */
    public void describeRequest(String requestMethod, String requestTarget) {
        method = requestMethod;
        target = requestTarget;
    }

    /**
     * Starts sending {@code prefix}, then {@code body} (null for none), then the FIN.
     *
     * @param note null, or why the request was refused when this response answers it with an error status
     */
    public void send(int responseStatus, ByteBuffer prefix, Body body, String note) {
        status = responseStatus;
        bodyLength = body == null ? 0 : body.length();
        completedNote = note;
        sender = new BodySender(transport, streamId, pool, prefix, body);
        try {
            if (sender.start()) {
                report(completedNote);
            }
        } catch (IOException e) {
            abort(internalErrorCode, "reading the body failed: " + e.getMessage());
        }
    }

    /** The stream became writable: continue the body. */
    public void writable() {
        if (sender == null || settled) {
            return;
        }
        try {
            if (sender.resume()) {
                report(completedNote);
            }
        } catch (IOException e) {
            abort(internalErrorCode, "reading the body failed: " + e.getMessage());
        }
    }

    /** The peer acknowledged the whole response. */
    public void acked() {
        settled = true;
    }

    /** Whether a response was started with {@link #send}. */
    public boolean started() {
        return sender != null;
    }

    /** Whether a started response has not yet been handed completely to the transport. */
    public boolean sending() {
        return sender != null && !sender.finished();
    }

    /** Whether nothing of the response remains to be acknowledged (acked, reset, or never to be sent). */
    public boolean settled() {
        return settled;
    }

    /** Abandons the response: releases the body, resets the stream with {@code code} and logs {@code reason}. */
    public void abort(long code, String reason) {
        if (sender != null) {
            sender.abort();
        }
        transport.resetStream(streamId, code);
        settled = true;
        report(reason);
    }

    /** Like {@link #abort}, with {@code loggedStatus} as the status the log names (0: none was answered). */
    public void refuse(long code, int loggedStatus, String reason) {
        status = loggedStatus;
        abort(code, reason);
    }

    /** Resets the stream before any response without logging a request (none was read). */
    public void resetUnlogged(long code) {
        settled = true;
        transport.resetStream(streamId, code);
    }

    /** The connection ended: release the body of a response still being sent and log why it was cut off. */
    public void connectionEnded(String why) {
        if (sending()) {
            sender.abort();
            report("the connection ended before the response was sent: " + why);
        }
    }

    private void report(String error) {
        if (!reported) {
            reported = true;
            log.accept(new ServedRequest(streamId, method, target, status, bodyLength, error));
        }
    }
}
