package org.pacelab.peers;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.peers.build.PicoquicBuild;

/**
 * picoquic (picoquicdemo as pacelab builds it): pacelab's client downloads 10 MiB and 50 concurrent files from its
 * server (HTTP/3, and hq-interop), and its client downloads 10 MiB and 50 concurrent streams from pacelab's server;
 * every body SHA-256 identical.
 */
@Tag("interop")
@Timeout(value = 5, unit = java.util.concurrent.TimeUnit.MINUTES)
class PicoquicInteropTest {
    @TempDir
    Path dir;
    private Path demo;

    @BeforeEach
    void built() {
        demo = BuiltPeers.require(new PicoquicBuild(), PicoquicBuild.PROGRAM).file(PicoquicBuild.PROGRAM);
    }

    private ThirdPartyInterop.ServerCommand server() {
        return (port, www, cert, key) -> List.of(demo.toString(), "-p", Integer.toString(port), "-c", cert.toString(), "-k",
                key.toString(), "-w", www.toString(), "-G", "cubic");
    }

    private ThirdPartyInterop.ClientCommand client() {
        return (port, urls, out) -> {
            List<String> scenario = new ArrayList<>();
            for (int i = 0; i < urls.size(); i++) {
                String u = urls.get(i);
                scenario.add(4 * i + ":-:" + u.substring(u.indexOf('/', "https://".length())));
            }
            return List.of(demo.toString(), "-n", "localhost", "-o", out.toString(), "-G", "cubic", "127.0.0.1",
                    Integer.toString(port), String.join(";", scenario));
        };
    }

    /** picoquicdemo saves a path without its leading slash, the other slashes turned into underscores. */
    private static Path saved(Path out, String target) {
        return out.resolve(target.substring(1).replace('/', '_'));
    }

    @Test
    void pacelabDownloadsTenMibFromPicoquic() throws Exception {
        ThirdPartyInterop.pacelabDownloadsFromServer(dir, "picoquic", server(), Map.of(), "h3", ThirdPartyInterop.tenMib());
    }

    @Test
    void pacelabDownloadsTenMibFromPicoquicOverHqInterop() throws Exception {
        ThirdPartyInterop.pacelabDownloadsFromServer(dir, "picoquic", server(), Map.of(), "hq-interop", ThirdPartyInterop.tenMib());
    }

    @Test
    void pacelabDownloadsFiftyConcurrentFilesFromPicoquic() throws Exception {
        ThirdPartyInterop.pacelabDownloadsFromServer(dir, "picoquic", server(), Map.of(), "h3", ThirdPartyInterop.fiftyFiles());
    }

    @Test
    void picoquicDownloadsTenMibFromPacelab() throws Exception {
        ThirdPartyInterop.clientDownloadsFromPacelab(dir, "picoquic", client(), Map.of(), PicoquicInteropTest::saved,
                ThirdPartyInterop.tenMibTarget());
    }

    @Test
    void picoquicDownloadsFiftyConcurrentStreamsFromPacelab() throws Exception {
        ThirdPartyInterop.clientDownloadsFromPacelab(dir, "picoquic", client(), Map.of(), PicoquicInteropTest::saved,
                ThirdPartyInterop.fiftyTargets());
    }
}
