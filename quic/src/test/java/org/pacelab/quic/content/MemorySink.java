package org.pacelab.quic.content;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/** A {@link DownloadSink} for tests: keeps committed bodies in memory, by request target. */
public final class MemorySink implements DownloadSink {
    public final Map<String, byte[]> committed = new HashMap<>();
    public final Set<String> aborted = new HashSet<>();
    /** Targets whose open fails, to test storage errors. */
    public final Set<String> failOpen = new HashSet<>();
    /** Largest single write, to check the client hands bodies on in bounded pieces. */
    public int largestWrite;

    @Override
    public DownloadOutput open(DownloadRequest request) throws IOException {
        if (failOpen.contains(request.target())) {
            throw new IOException("disk full (test)");
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        return new DownloadOutput() {
            @Override
            public void write(ByteBuffer data) {
                largestWrite = Math.max(largestWrite, data.remaining());
                while (data.hasRemaining()) {
                    bytes.write(data.get());
                }
            }

            @Override
            public void commit() {
                committed.put(request.target(), bytes.toByteArray());
            }

            @Override
            public void abort() {
                aborted.add(request.target());
            }
        };
    }
}
