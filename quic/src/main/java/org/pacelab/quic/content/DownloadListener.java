package org.pacelab.quic.content;

import java.util.List;

/** Tells the runtime how downloads end. Called on the connection's thread. */
public interface DownloadListener {
    /** One download ended, successfully or not. */
    void onDownloadFinished(DownloadResult result);

    /**
     * Every download has ended (called exactly once, after the last {@link #onDownloadFinished}), either
     * because all completed or because the connection closed first; results are in request order.
     */
    void onAllFinished(List<DownloadResult> results);
}
