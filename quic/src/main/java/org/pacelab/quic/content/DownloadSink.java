package org.pacelab.quic.content;

import java.io.IOException;

/** Where a client puts downloaded bodies. Called on the connection's thread. */
public interface DownloadSink {
    /**
     * Starts receiving the body of {@code request}, once the response says it is coming.
     *
     * @throws IOException when the body cannot be stored (the download then fails with this message)
     */
    DownloadOutput open(DownloadRequest request) throws IOException;
}
