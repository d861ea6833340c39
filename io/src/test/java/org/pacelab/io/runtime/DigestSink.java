package org.pacelab.io.runtime;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.pacelab.quic.content.DownloadOutput;
import org.pacelab.quic.content.DownloadRequest;
import org.pacelab.quic.content.DownloadSink;

/** Test sink: keeps only the SHA-256 and length of each committed body. */
final class DigestSink implements DownloadSink {
    final Map<String, String> sha256 = new ConcurrentHashMap<>();
    final Map<String, Long> lengths = new ConcurrentHashMap<>();

    @Override
    public DownloadOutput open(DownloadRequest request) {
        MessageDigest md;
        try {
            md = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
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

    static String sha256(byte[] data) throws NoSuchAlgorithmException {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
    }
}
