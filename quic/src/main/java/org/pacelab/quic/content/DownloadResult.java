package org.pacelab.quic.content;

/**
 * How one download ended, with its timing. Times are values of the client's injected nanosecond clock;
 * a time that was never reached is -1.
 *
 * @param streamId          the request stream, or -1 when the request was never sent
 * @param status            the HTTP status, 0 for hq-interop (HTTP/0.9 has none) or when no response came
 * @param bodyBytes         body bytes received
 * @param requestSentNanos  when the whole request, including its end, was handed to the transport
 * @param firstByteNanos    when the first byte of the response arrived
 * @param lastByteNanos     when the end of the response arrived
 * @param error             null on success, else one sentence saying what went wrong
 */
public record DownloadResult(DownloadRequest request, long streamId, int status, long bodyBytes,
        long requestSentNanos, long firstByteNanos, long lastByteNanos, String error) {

    public boolean succeeded() {
        return error == null;
    }

    /** Request sent to first response byte, or -1. */
    public long timeToFirstByteNanos() {
        return requestSentNanos < 0 || firstByteNanos < 0 ? -1 : firstByteNanos - requestSentNanos;
    }

    /** Request sent to last response byte, or -1. */
    public long transferNanos() {
        return requestSentNanos < 0 || lastByteNanos < 0 ? -1 : lastByteNanos - requestSentNanos;
    }
}
