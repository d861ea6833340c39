package org.pacelab.peers;

import java.nio.file.Path;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.peers.build.QuicGoBuild;

/**
 * quic-go 0.29 (pacelab's quic-go-server and quic-go-client on its public API): pacelab's client downloads 10 MiB and
 * 50 concurrent files from the quic-go server (HTTP/3, and hq-interop), and the quic-go client downloads 10 MiB and 50
 * concurrent streams from pacelab's server; every body SHA-256 identical.
 */
@Tag("interop")
@Timeout(value = 5, unit = java.util.concurrent.TimeUnit.MINUTES)
class QuicGoInteropTest {
    @TempDir
    Path dir;
    private ProgramPeer quicGo;

    @BeforeEach
    void built() {
        quicGo = new ProgramPeer("quic-go", BuiltPeers.require(new QuicGoBuild(), QuicGoBuild.CLIENT), QuicGoBuild.SERVER,
                QuicGoBuild.CLIENT);
    }

    @Test
    void pacelabDownloadsTenMibFromQuicGo() throws Exception {
        quicGo.pacelabDownloads(dir, "h3", ThirdPartyInterop.tenMib());
    }

    @Test
    void pacelabDownloadsTenMibFromQuicGoOverHqInterop() throws Exception {
        quicGo.pacelabDownloads(dir, "hq-interop", ThirdPartyInterop.tenMib());
    }

    @Test
    void pacelabDownloadsFiftyConcurrentFilesFromQuicGo() throws Exception {
        quicGo.pacelabDownloads(dir, "h3", ThirdPartyInterop.fiftyFiles());
    }

    @Test
    void quicGoDownloadsTenMibFromPacelab() throws Exception {
        quicGo.downloadsFromPacelab(dir, "h3", ThirdPartyInterop.tenMibTarget());
    }

    @Test
    void quicGoDownloadsTenMibFromPacelabOverHqInterop() throws Exception {
        quicGo.downloadsFromPacelab(dir, "hq-interop", ThirdPartyInterop.tenMibTarget());
    }

    @Test
    void quicGoDownloadsFiftyConcurrentStreamsFromPacelab() throws Exception {
        quicGo.downloadsFromPacelab(dir, "h3", ThirdPartyInterop.fiftyTargets());
    }
}
