package org.pacelab.quic.content;

import java.io.IOException;
import java.nio.ByteBuffer;

/** The receiving end of one download: bytes in order, then exactly one of commit or abort. */
public interface DownloadOutput {
    /** Takes all remaining bytes of {@code data} (the buffer is only valid during the call). */
    void write(ByteBuffer data) throws IOException;

    /** The body is complete and verified by the protocol: make it visible (e.g. rename into place). */
    void commit() throws IOException;

    /** The download failed: discard everything written. Never throws. */
    void abort();
}
