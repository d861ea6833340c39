package org.pacelab.quic.conn;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import org.pacelab.quic.content.DownloadListener;
import org.pacelab.quic.content.DownloadOutput;
import org.pacelab.quic.content.DownloadResult;
import org.pacelab.quic.content.DownloadSink;

/** A test's download sink and listener in one: counts the body bytes received and keeps the batch's results. */
final class CountingDownloads {
    /** The results, once the batch finished; empty until then. */
    final List<DownloadResult> results = new ArrayList<>();
    private long received;

    /** Body bytes received so far, over all downloads. */
    long received() {
        return received;
    }

    DownloadSink sink() {
        return request -> new DownloadOutput() {
            @Override public void write(ByteBuffer data) { received += data.remaining(); data.position(data.limit()); }
            @Override public void commit() { }
            @Override public void abort() { }
        };
    }

    DownloadListener listener() {
        return new DownloadListener() {
            @Override public void onDownloadFinished(DownloadResult result) { }
            @Override public void onAllFinished(List<DownloadResult> r) { results.addAll(r); }
        };
    }
}
