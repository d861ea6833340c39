package org.pacelab.peers;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.pacelab.quic.content.DownloadOutput;
import org.pacelab.quic.content.DownloadRequest;
import org.pacelab.quic.content.DownloadSink;

/** Keeps only the SHA-256 and length of each committed body, by request target. */
public final class DigestSink implements DownloadSink {
    public final Map<String, String> sha256 = new ConcurrentHashMap<>();
    public final Map<String, Long> lengths = new ConcurrentHashMap<>();

    @Override
    public DownloadOutput open(DownloadRequest request) {
        MessageDigest md = Interop.sha256();
        long[] n = {0};
        return new DownloadOutput() {
            @Override
            public void write(ByteBuffer data) {
                n[0] += data.remaining();
                md.update(data);
            }

            @Override
            public void commit() {
                sha256.put(request.target(), HexFormat.of().formatHex(md.digest()));
                lengths.put(request.target(), n[0]);
            }

            @Override
            public void abort() {}
        };
    }
}
