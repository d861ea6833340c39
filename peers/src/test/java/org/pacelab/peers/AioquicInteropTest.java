package org.pacelab.peers;

import java.nio.file.Path;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.peers.build.AioquicBuild;

/**
 * aioquic (pacelab's aioquic server and client on its public API, hq-interop): pacelab's client downloads 10 MiB and 50
 * concurrent files from the aioquic server, and the aioquic client downloads 10 MiB and 50 concurrent streams from
 * pacelab's server; every body SHA-256 identical.
 */
@Tag("interop")
@Timeout(value = 8, unit = java.util.concurrent.TimeUnit.MINUTES)
class AioquicInteropTest {
    @TempDir
    Path dir;
    private ProgramPeer aioquic;

    @BeforeEach
    void built() {
        aioquic = new ProgramPeer("aioquic", BuiltPeers.require(new AioquicBuild(), AioquicBuild.CLIENT), AioquicBuild.SERVER,
                AioquicBuild.CLIENT);
    }

    @Test
    void pacelabDownloadsTenMibFromAioquic() throws Exception {
        aioquic.pacelabDownloads(dir, "hq-interop", ThirdPartyInterop.tenMib(), "--cc", "reno");
    }

    @Test
    void pacelabDownloadsFiftyConcurrentFilesFromAioquicWithCubic() throws Exception {
        aioquic.pacelabDownloads(dir, "hq-interop", ThirdPartyInterop.fiftyFiles(), "--cc", "cubic");
    }

    @Test
    void aioquicDownloadsTenMibFromPacelab() throws Exception {
        aioquic.downloadsFromPacelab(dir, "hq-interop", ThirdPartyInterop.tenMibTarget());
    }

    @Test
    void aioquicDownloadsFiftyConcurrentStreamsFromPacelab() throws Exception {
        aioquic.downloadsFromPacelab(dir, "hq-interop", ThirdPartyInterop.fiftyTargets());
    }
}
