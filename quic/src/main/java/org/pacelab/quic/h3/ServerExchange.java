package org.pacelab.quic.h3;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.pacelab.quic.app.StreamTransport;
import org.pacelab.quic.content.Body;
import org.pacelab.quic.content.ByteArrayBody;
import org.pacelab.quic.content.ChunkPool;
import org.pacelab.quic.content.Content;
import org.pacelab.quic.content.ContentSource;
import org.pacelab.quic.content.RequestReader;
import org.pacelab.quic.content.ServedRequest;
import org.pacelab.quic.content.ServerResponse;
import org.pacelab.quic.h3.qpack.FieldSectionDecoder;
import org.pacelab.quic.h3.qpack.FieldSectionEncoder;
import org.pacelab.quic.h3.qpack.HeaderField;
import org.pacelab.quic.h3.qpack.QpackException;
import org.pacelab.quic.content.Printable;

/**
 * One request stream on the server (RFC 9114 §4.1): reads HEADERS, optional DATA and trailers in the
 * order the RFC allows, answers from the {@link ContentSource} as soon as the request header section is
 * valid, and streams the response body.
 */
final class ServerExchange implements FrameReader.Sink {
    private enum Phase { HEADERS, BODY, AFTER_TRAILERS }

    private final long streamId;
    private final StreamTransport transport;
    private final ContentSource content;
    private final ServerResponse response;
    private final RequestReader request;
    private final FrameReader frames = new FrameReader(H3Endpoint.MAX_HEADERS_PAYLOAD);
    private Phase phase = Phase.HEADERS;
    private long requestContentLength = -1;
    private long requestBodyBytes;
    /** The request side ended (FIN, reset, or we stopped reading). */
    /** The stream was abandoned with a stream error; further data is dropped. */
    private boolean aborted;
    private String method = "";

    ServerExchange(long streamId, StreamTransport transport, ContentSource content, ChunkPool pool,
            Consumer<ServedRequest> log) {
        this.streamId = streamId;
        this.transport = transport;
        this.content = content;
        this.response = new ServerResponse(streamId, transport, pool, log, H3Error.H3_INTERNAL_ERROR.code);
        this.request = new RequestReader(streamId, transport, H3Error.H3_NO_ERROR.code);
    }

    /** Reads everything readable. */
    void readable(ByteBuffer buffer) throws H3Exception {
        while (!request.ended()) {
            int n = request.read(buffer);
            if (n == 0) {
                return;
            }
            if (n < 0) {
                requestEnded();
                return;
            }
            if (!aborted) {
                frames.consume(buffer, this);
            }
        }
    }

    void writable() {
        response.writable();
    }

    /** The peer acknowledged the whole response. */
    void acked() {
        response.acked();
    }

    /** The client reset its request stream. */
    void peerReset(long code) {
        request.end();
        if (phase == Phase.HEADERS && !aborted) {
            // No request to answer (RFC 9114 §4.1.1).
            aborted = true;
            response.abort(H3Error.H3_REQUEST_INCOMPLETE.code,
                    "the client reset the stream with " + H3Error.nameOf(code) + " before sending a request");
        }
    }

    /** The client asked us to stop sending the response (RFC 9000 §3.5: answer with RESET_STREAM). */
    void stopSending(long code) {
        if (!response.started()) {
            aborted = true;
            response.abort(code, "the client sent STOP_SENDING with " + H3Error.nameOf(code) + " before the response");
        } else if (response.sending()) {
            response.abort(code, "the client sent STOP_SENDING with " + H3Error.nameOf(code));
        }
    }

    /** The connection ended: release the body. */
    void connectionEnded(String why) {
        response.connectionEnded(why);
    }

    /**
     * Whether nothing more will happen on this stream: the request side ended and the response is settled.
     * Once the response is acknowledged, the rest of the request is not needed: stop reading
     * (RFC 9114 §4.1.1, with H3_NO_ERROR).
     */
    boolean done() {
        return request.doneWith(response);
    }

    // ---- frames ----

    @Override
    public void frameStarted(long type, long length) throws H3Exception {
        if (type == FrameType.DATA && phase != Phase.BODY) {
            throw unexpected("DATA " + (phase == Phase.HEADERS ? "before the request HEADERS" : "after the trailers"));
        }
        if (type == FrameType.HEADERS && phase == Phase.AFTER_TRAILERS) {
            throw unexpected("HEADERS after the trailers");
        }
        if (type == FrameType.PUSH_PROMISE) {
            throw unexpected("PUSH_PROMISE, which clients must not send (RFC 9114 §7.2.5)");
        }
        if (type == FrameType.SETTINGS || type == FrameType.GOAWAY || type == FrameType.MAX_PUSH_ID
                || type == FrameType.CANCEL_PUSH) {
            throw unexpected(FrameType.name(type) + ", which belongs on the control stream (RFC 9114 §7.2)");
        }
    }

    @Override
    public void dataPayload(ByteBuffer payload) {
        requestBodyBytes += payload.remaining();
        if (requestContentLength >= 0 && requestBodyBytes > requestContentLength) {
            malformed("the request body exceeds its content-length " + requestContentLength);
        }
    }

    @Override
    public void frameComplete(H3Frame frame) throws H3Exception {
        if (!(frame instanceof H3Frame.Headers headers)) {
            throw new IllegalStateException("only HEADERS reaches frameComplete on a request stream");
        }
        List<HeaderField> fields;
        try {
            fields = FieldSectionDecoder.decode(ByteBuffer.wrap(headers.fieldSection()));
        } catch (QpackException e) {
            throw new H3Exception(e);
        }
        if (phase == Phase.HEADERS) {
            phase = Phase.BODY;
            respondTo(fields);
        } else {
            phase = Phase.AFTER_TRAILERS;
            try {
                FieldRules.checkTrailers(fields);
            } catch (MalformedMessageException e) {
                malformed(e.getMessage());
            }
        }
    }

    private void requestEnded() throws H3Exception {
        if (aborted) {
            return;
        }
        if (!frames.atFrameBoundary()) {
            throw new H3Exception(H3Error.H3_FRAME_ERROR, "request stream " + streamId
                    + " ended inside a frame at offset " + frames.offset() + " (RFC 9114 §7.1)");
        }
        if (phase == Phase.HEADERS) {
            aborted = true;
            response.abort(H3Error.H3_REQUEST_INCOMPLETE.code,
                    "the request stream ended without a request header section (H3_REQUEST_INCOMPLETE)");
        } else if (requestContentLength >= 0 && requestBodyBytes != requestContentLength) {
            malformed("the request body has " + requestBodyBytes + " bytes but its content-length says "
                    + requestContentLength);
        }
    }

    // ---- response ----

    private void respondTo(List<HeaderField> fields) {
        RequestHead head;
        try {
            head = RequestHead.parse(fields);
            requestContentLength = FieldRules.contentLength(fields);
        } catch (MalformedMessageException e) {
            // RFC 9114 §4.1.2: a server MAY answer a malformed request before closing the stream.
            method = valueOf(fields, ":method");
            response.describeRequest(method, valueOf(fields, ":path"));
            respondWithError(e.status(), e.getMessage());
            return;
        }
        method = head.method();
        response.describeRequest(method, head.path());
        switch (content.open(head.path())) {
            case Content.Refused r -> respondWithError(r.status(), r.reason());
            case Content.Found f -> {
                Body body = f.body();
                long length = body.length();
                if (head.isHead()) {
                    body.close();
                    body = null;
                }
                send(200, length, List.of(), body, null);
            }
        }
    }

    private void respondWithError(int errorStatus, String reason) {
        byte[] text = (errorStatus + " " + reason + "\n").getBytes(StandardCharsets.UTF_8);
        List<HeaderField> extra = new ArrayList<>();
        extra.add(new HeaderField("content-type", "text/plain; charset=utf-8"));
        if (errorStatus == 405) {
            extra.add(new HeaderField("allow", "GET, HEAD"));
        }
        send(errorStatus, text.length, extra, method.equals("HEAD") ? null : new ByteArrayBody(text), reason);
    }

    private void send(int responseStatus, long contentLength, List<HeaderField> extra, Body body, String refusal) {
        long bodyLength = body == null ? 0 : body.length();
        List<HeaderField> fields = new ArrayList<>();
        fields.add(new HeaderField(":status", Integer.toString(responseStatus)));
        fields.add(new HeaderField("content-length", Long.toString(contentLength)));
        fields.addAll(extra);
        byte[] section = FieldSectionEncoder.encode(fields);
        ByteBuffer prefix = ByteBuffer.allocate(2 * H3FrameCodec.MAX_HEADER_SIZE + section.length);
        H3FrameCodec.writeHeader(prefix, FrameType.HEADERS, section.length);
        prefix.put(section);
        if (bodyLength > 0) {
            // One DATA frame carries the whole body; its payload then streams chunk by chunk (RFC 9114 §7.2.1).
            H3FrameCodec.writeHeader(prefix, FrameType.DATA, bodyLength);
        }
        response.send(responseStatus, prefix.flip(), body, refusal);
    }

    /** Stream error H3_MESSAGE_ERROR (RFC 9114 §4.1.2): abandon both directions. */
    private void malformed(String reason) {
        if (aborted) {
            return;
        }
        aborted = true;
        transport.stopSending(streamId, H3Error.H3_MESSAGE_ERROR.code);
        response.refuse(H3Error.H3_MESSAGE_ERROR.code, 0, "malformed request: " + reason);
    }

    private H3Exception unexpected(String what) {
        return new H3Exception(H3Error.H3_FRAME_UNEXPECTED, what + " at offset " + frames.frameStart()
                + " of request stream " + streamId + " (RFC 9114 §4.1)");
    }

    private static String valueOf(List<HeaderField> fields, String name) {
        for (HeaderField f : fields) {
            if (f.name().equals(name)) {
                return Printable.of(f.value());
            }
        }
        return "";
    }
}
