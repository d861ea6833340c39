package org.pacelab.quic.h3;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import org.pacelab.quic.app.StreamTransport;
import org.pacelab.quic.content.Download;
import org.pacelab.quic.h3.qpack.FieldSectionDecoder;
import org.pacelab.quic.h3.qpack.HeaderField;
import org.pacelab.quic.h3.qpack.QpackException;
import org.pacelab.quic.content.Printable;

/**
 * One GET on the client (RFC 9114 §4.1): reads interim and final HEADERS, DATA and trailers in the order
 * the RFC allows, passes the body of a 2xx response to the {@link Download} and checks it against
 * content-length.
 */
final class ClientExchange implements FrameReader.Sink {
    private enum Phase { HEADERS, BODY, AFTER_TRAILERS }

    /** How much of an error response's body is kept for the failure message. */
    private static final int ERROR_TEXT_LIMIT = 200;

    private final long streamId;
    private final StreamTransport transport;
    private final Download download;
    private final FrameReader frames = new FrameReader(H3Endpoint.MAX_HEADERS_PAYLOAD);
    private Phase phase = Phase.HEADERS;
    private ResponseHead head;
    private long bodyBytes;
    private StringBuilder errorText;

    ClientExchange(long streamId, StreamTransport transport, Download download) {
        this.streamId = streamId;
        this.transport = transport;
        this.download = download;
    }

    Download download() {
        return download;
    }

    /** Reads everything readable; the download may end during the call. */
    void readable(ByteBuffer buffer) throws H3Exception {
        while (!download.ended()) {
            buffer.clear();
            int n = transport.read(streamId, buffer);
            if (n == 0) {
                return;
            }
            if (n < 0) {
                responseEnded();
                return;
            }
            download.responseArrived();
            buffer.flip();
            frames.consume(buffer, this);
        }
    }

    void peerReset(long code) {
        download.fail("the server reset the stream with " + H3Error.nameOf(code)
                + (code == H3Error.H3_REQUEST_REJECTED.code ? " (request not processed; it may be retried)" : ""));
    }

    @Override
    public void frameStarted(long type, long length) throws H3Exception {
        if (type == FrameType.DATA && phase != Phase.BODY) {
            throw unexpected("DATA " + (phase == Phase.HEADERS ? "before the response HEADERS" : "after the trailers"));
        }
        if (type == FrameType.HEADERS && phase == Phase.AFTER_TRAILERS) {
            throw unexpected("HEADERS after the trailers");
        }
        if (type == FrameType.PUSH_PROMISE) {
            throw new H3Exception(H3Error.H3_ID_ERROR, "PUSH_PROMISE on request stream " + streamId
                    + ", but we never sent MAX_PUSH_ID, so no push ID is valid (RFC 9114 §7.2.5)");
        }
        if (type == FrameType.SETTINGS || type == FrameType.GOAWAY || type == FrameType.MAX_PUSH_ID
                || type == FrameType.CANCEL_PUSH) {
            throw unexpected(FrameType.name(type) + ", which belongs on the control stream (RFC 9114 §7.2)");
        }
    }

    @Override
    public void dataPayload(ByteBuffer payload) {
        if (download.ended()) {
            return;
        }
        bodyBytes += payload.remaining();
        if (head.contentLength() >= 0 && bodyBytes > head.contentLength()) {
            malformed("the body exceeds its content-length " + head.contentLength());
            return;
        }
        if (errorText != null) {
            while (payload.hasRemaining() && errorText.length() < ERROR_TEXT_LIMIT) {
                errorText.append((char) (payload.get() & 0xff));
            }
            return;
        }
        try {
            download.body(payload);
        } catch (IOException e) {
            transport.stopSending(streamId, H3Error.H3_REQUEST_CANCELLED.code);
            download.fail("could not store the body: " + e.getMessage());
        }
    }

    @Override
    public void frameComplete(H3Frame frame) throws H3Exception {
        if (!(frame instanceof H3Frame.Headers headers)) {
            throw new IllegalStateException("only HEADERS reaches frameComplete on a request stream");
        }
        if (download.ended()) {
            return;
        }
        List<HeaderField> fields;
        try {
            fields = FieldSectionDecoder.decode(ByteBuffer.wrap(headers.fieldSection()));
        } catch (QpackException e) {
            throw new H3Exception(e);
        }
        try {
            if (phase == Phase.HEADERS) {
                ResponseHead parsed = ResponseHead.parse(fields);
                if (!parsed.isInterim()) {
                    finalHeaders(parsed);
                }
            } else {
                phase = Phase.AFTER_TRAILERS;
                FieldRules.checkTrailers(fields);
            }
        } catch (MalformedMessageException e) {
            malformed(e.getMessage());
        }
    }

    private void finalHeaders(ResponseHead parsed) {
        head = parsed;
        phase = Phase.BODY;
        download.status(parsed.status());
        if (parsed.status() < 200 || parsed.status() > 299) {
            errorText = new StringBuilder();
            return;
        }
        try {
            download.openOutput();
        } catch (IOException e) {
            transport.stopSending(streamId, H3Error.H3_REQUEST_CANCELLED.code);
            download.fail("could not store the body: " + e.getMessage());
        }
    }

    private void responseEnded() throws H3Exception {
        if (!frames.atFrameBoundary()) {
            throw new H3Exception(H3Error.H3_FRAME_ERROR, "response stream " + streamId
                    + " ended inside a frame at offset " + frames.offset() + " (RFC 9114 §7.1)");
        }
        if (head == null) {
            download.fail("the server ended the stream without a final response (RFC 9114 §4.1)");
        } else if (head.contentLength() >= 0 && bodyBytes != head.contentLength()) {
            download.fail("the response body has " + bodyBytes + " bytes but its content-length says "
                    + head.contentLength() + " (malformed, RFC 9114 §4.1.2)");
        } else if (errorText != null) {
            download.fail("the server answered " + head.status()
                    + (errorText.isEmpty() ? "" : ": " + Printable.of(errorText.toString().strip())));
        } else {
            download.succeed();
        }
    }

    /** Stream error H3_MESSAGE_ERROR (RFC 9114 §4.1.2). */
    private void malformed(String reason) {
        transport.stopSending(streamId, H3Error.H3_MESSAGE_ERROR.code);
        download.fail("malformed response: " + reason);
    }

    private H3Exception unexpected(String what) {
        return new H3Exception(H3Error.H3_FRAME_UNEXPECTED, what + " at offset " + frames.frameStart()
                + " of request stream " + streamId + " (RFC 9114 §4.1)");
    }

    /** The request: HEADERS with GET and the URL's parts, then FIN (RFC 9114 §4.3.1). */
    static ByteBuffer request(byte[] fieldSection) {
        ByteBuffer b = ByteBuffer.allocate(H3FrameCodec.MAX_HEADER_SIZE + fieldSection.length);
        H3FrameCodec.writeHeader(b, FrameType.HEADERS, fieldSection.length);
        return b.put(fieldSection).flip();
    }
}
