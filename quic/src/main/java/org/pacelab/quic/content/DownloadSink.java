package org.pacelab.quic.content;

import java.io.IOException;
import java.nio.ByteBuffer;

/** Where a client puts downloaded bodies. Called on the connection's thread. */
public interface DownloadSink {
    /** Counts nothing and keeps nothing: every body is consumed and dropped (goodput runs, warm-up). */
    DownloadSink DISCARD = request -> new DownloadOutput() {
        @Override
        public void write(ByteBuffer data) {
            data.position(data.limit());
        }

        @Override
        public void commit() {}

        @Override
        public void abort() {}
    };

    /**
     * Starts receiving the body of {@code request}, once the response says it is coming.
     *
     * @throws IOException when the body cannot be stored (the download then fails with this message)
     */
    DownloadOutput open(DownloadRequest request) throws IOException;
}
