package org.pacelab.quic.content;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * One started download: records its timing from the batch's clock, passes body bytes to the
 * {@link DownloadOutput} and ends exactly once, successfully or not.
 */
public final class Download {
    private final DownloadBatch batch;
    private final int index;
    private final DownloadRequest request;
    private final long streamId;
    private long requestSent = -1;
    private long firstByte = -1;
    private int status;
    private long bodyBytes;
    private DownloadOutput output;
    private boolean ended;

    Download(DownloadBatch batch, int index, DownloadRequest request, long streamId) {
        this.batch = batch;
        this.index = index;
        this.request = request;
        this.streamId = streamId;
    }

    public DownloadRequest request() {
        return request;
    }

    public long streamId() {
        return streamId;
    }

    public boolean ended() {
        return ended;
    }

    public long bodyBytes() {
        return bodyBytes;
    }

    /** The whole request has been handed to the transport. */
    public void requestSent() {
        if (requestSent < 0) {
            requestSent = batch.now();
        }
    }

    /** Response bytes (of any kind) arrived; the first call is the time to first byte. */
    public void responseArrived() {
        if (firstByte < 0) {
            firstByte = batch.now();
        }
    }

    /** The HTTP status of the final response (not set for hq-interop). */
    public void status(int status) {
        this.status = status;
    }

    /** Opens the output; the body follows. */
    public void openOutput() throws IOException {
        output = batch.sink().open(request);
    }

    /** Passes all remaining bytes of {@code data} to the output, opening it first if needed. */
    public void body(ByteBuffer data) throws IOException {
        if (output == null) {
            openOutput();
        }
        bodyBytes += data.remaining();
        output.write(data);
    }

    /** The response ended as the protocol requires: commit the output and report success. */
    public void succeed() {
        if (ended) {
            return;
        }
        try {
            if (output == null) {
                openOutput();
            }
            output.commit();
        } catch (IOException e) {
            fail("could not store the body of " + request.target() + ": " + e.getMessage());
            return;
        }
        ended = true;
        batch.finish(index, new DownloadResult(request, streamId, status, bodyBytes, requestSent, firstByte,
                batch.now(), null));
    }

    /** The download failed; {@code reason} is one sentence. Discards the output. */
    public void fail(String reason) {
        if (ended) {
            return;
        }
        ended = true;
        if (output != null) {
            output.abort();
        }
        batch.finish(index, new DownloadResult(request, streamId, status, bodyBytes, requestSent, firstByte, -1,
                request.target() + ": " + reason));
    }
}
