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
import org.pacelab.peers.build.InstalledBuild;
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
    private InstalledBuild quicGo;

    @BeforeEach
    void built() {
        quicGo = BuiltPeers.require(new QuicGoBuild(), QuicGoBuild.CLIENT);
    }

    private ThirdPartyInterop.ServerCommand server(String alpn) {
        return (port, www, cert, key) -> List.of(quicGo.file(QuicGoBuild.SERVER).toString(), "--listen", "127.0.0.1:" + port,
                "--root", www.toString(), "--cert", cert.toString(), "--key", key.toString(), "--alpn", alpn);
    }

    private ThirdPartyInterop.ClientCommand client(String alpn) {
        return (port, urls, out) -> {
            List<String> cmd = new ArrayList<>(List.of(quicGo.file(QuicGoBuild.CLIENT).toString(), "--insecure", "--output",
                    out.toString(), "--json", out.resolveSibling("client.json").toString(), "--alpn", alpn));
            cmd.addAll(urls);
            return cmd;
        };
    }

    /** The quic-go client saves a body under the URL's last path segment. */
    private static Path saved(Path out, String target) {
        return out.resolve(target.substring(target.lastIndexOf('/') + 1));
    }

    @Test
    void pacelabDownloadsTenMibFromQuicGo() throws Exception {
        ThirdPartyInterop.pacelabDownloadsFromServer(dir, "quic-go", server("h3"), Map.of(), "h3", ThirdPartyInterop.tenMib());
    }

    @Test
    void pacelabDownloadsTenMibFromQuicGoOverHqInterop() throws Exception {
        ThirdPartyInterop.pacelabDownloadsFromServer(dir, "quic-go", server("hq-interop"), Map.of(), "hq-interop",
                ThirdPartyInterop.tenMib());
    }

    @Test
    void pacelabDownloadsFiftyConcurrentFilesFromQuicGo() throws Exception {
        ThirdPartyInterop.pacelabDownloadsFromServer(dir, "quic-go", server("h3"), Map.of(), "h3", ThirdPartyInterop.fiftyFiles());
    }

    @Test
    void quicGoDownloadsTenMibFromPacelab() throws Exception {
        ThirdPartyInterop.clientDownloadsFromPacelab(dir, "quic-go", client("h3"), Map.of(), QuicGoInteropTest::saved,
                ThirdPartyInterop.tenMibTarget());
    }

    @Test
    void quicGoDownloadsTenMibFromPacelabOverHqInterop() throws Exception {
        ThirdPartyInterop.clientDownloadsFromPacelab(dir, "quic-go", client("hq-interop"), Map.of(), QuicGoInteropTest::saved,
                ThirdPartyInterop.tenMibTarget());
    }

    @Test
    void quicGoDownloadsFiftyConcurrentStreamsFromPacelab() throws Exception {
        ThirdPartyInterop.clientDownloadsFromPacelab(dir, "quic-go", client("h3"), Map.of(), QuicGoInteropTest::saved,
                ThirdPartyInterop.fiftyTargets());
    }
}
