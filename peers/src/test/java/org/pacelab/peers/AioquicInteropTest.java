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
import org.pacelab.peers.build.AioquicBuild;
import org.pacelab.peers.build.InstalledBuild;

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
    private InstalledBuild aioquic;

    @BeforeEach
    void built() {
        aioquic = BuiltPeers.require(new AioquicBuild(), AioquicBuild.CLIENT);
    }

    private ThirdPartyInterop.ServerCommand server(String cc) {
        return (port, www, cert, key) -> List.of(aioquic.file(AioquicBuild.SERVER).toString(), "--listen", "127.0.0.1:" + port,
                "--root", www.toString(), "--cert", cert.toString(), "--key", key.toString(), "--alpn", "hq-interop", "--cc", cc);
    }

    private ThirdPartyInterop.ClientCommand client() {
        return (port, urls, out) -> {
            List<String> cmd = new ArrayList<>(List.of(aioquic.file(AioquicBuild.CLIENT).toString(), "--insecure", "--output",
                    out.toString(), "--json", out.resolveSibling("client.json").toString(), "--alpn", "hq-interop"));
            cmd.addAll(urls);
            return cmd;
        };
    }

    /** The aioquic client saves a body under the URL's last path segment. */
    private static Path saved(Path out, String target) {
        return out.resolve(target.substring(target.lastIndexOf('/') + 1));
    }

    @Test
    void pacelabDownloadsTenMibFromAioquic() throws Exception {
        ThirdPartyInterop.pacelabDownloadsFromServer(dir, "aioquic", server("reno"), Map.of(), "hq-interop", ThirdPartyInterop.tenMib());
    }

    @Test
    void pacelabDownloadsFiftyConcurrentFilesFromAioquicWithCubic() throws Exception {
        ThirdPartyInterop.pacelabDownloadsFromServer(dir, "aioquic", server("cubic"), Map.of(), "hq-interop",
                ThirdPartyInterop.fiftyFiles());
    }

    @Test
    void aioquicDownloadsTenMibFromPacelab() throws Exception {
        ThirdPartyInterop.clientDownloadsFromPacelab(dir, "aioquic", client(), Map.of(), AioquicInteropTest::saved,
                ThirdPartyInterop.tenMibTarget());
    }

    @Test
    void aioquicDownloadsFiftyConcurrentStreamsFromPacelab() throws Exception {
        ThirdPartyInterop.clientDownloadsFromPacelab(dir, "aioquic", client(), Map.of(), AioquicInteropTest::saved,
                ThirdPartyInterop.fiftyTargets());
    }
}
