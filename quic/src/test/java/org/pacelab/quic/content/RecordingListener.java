package org.pacelab.quic.content;

import java.util.ArrayList;
import java.util.List;

/** A {@link DownloadListener} for tests. */
public final class RecordingListener implements DownloadListener {
    public final List<DownloadResult> finished = new ArrayList<>();
    public List<DownloadResult> all;
    public int allFinishedCalls;

    @Override
    public void onDownloadFinished(DownloadResult result) {
        finished.add(result);
    }

    @Override
    public void onAllFinished(List<DownloadResult> results) {
        all = results;
        allFinishedCalls++;
    }
}
