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

/**
 * Acceptance 3 with Debian's ngtcp2 (GnuTLS build) over HTTP/3: gtlsclient downloads 10 MiB from pacelab's
 * server, pacelab's client downloads 10 MiB from gtlsserver, and 50 concurrent streams in one connection each
 * way; every body SHA-256 identical.
 */
@Tag("interop")
@Timeout(value = 5, unit = java.util.concurrent.TimeUnit.MINUTES)
class Ngtcp2InteropTest {
    @TempDir
    Path dir;
    private Path gtlsclient;
    private Path gtlsserver;

    @BeforeEach
    void peersInstalled() {
        gtlsclient = Interop.requireTool("gtlsclient", "ngtcp2-client");
        gtlsserver = Interop.requireTool("gtlsserver", "ngtcp2-server");
    }

    /** GnuTLS does not read the JDK's PKCS#8 encoding of EC keys, so the certificate is openssl's (as for every C peer). */
    private ThirdPartyInterop.ServerCommand server() {
        return (port, www, cert, key) -> List.of(gtlsserver.toString(), "-q", "-d", www.toString(), "127.0.0.1",
                Integer.toString(port), key.toString(), cert.toString());
    }

    private ThirdPartyInterop.ClientCommand client() {
        return (port, urls, out) -> {
            List<String> cmd = new ArrayList<>(List.of(gtlsclient.toString(), "-q", "--exit-on-all-streams-close",
                    "--download", out.toString(), "--max-data=1G", "--max-stream-data-bidi-local=1G", "127.0.0.1",
                    Integer.toString(port)));
            cmd.addAll(urls);
            return cmd;
        };
    }

    /** gtlsclient saves a body under the last segment of its path. */
    private static Path saved(Path out, String target) {
        return out.resolve(target.substring(target.lastIndexOf('/') + 1));
    }

    @Test
    void gtlsclientDownloadsTenMibFromPacelab() throws Exception {
        ThirdPartyInterop.clientDownloadsFromPacelab(dir, "gtlsclient", client(), Map.of(), Ngtcp2InteropTest::saved,
                ThirdPartyInterop.tenMibTarget());
    }

    @Test
    void gtlsclientDownloadsFiftyConcurrentStreamsFromPacelab() throws Exception {
        ThirdPartyInterop.clientDownloadsFromPacelab(dir, "gtlsclient", client(), Map.of(), Ngtcp2InteropTest::saved,
                ThirdPartyInterop.fiftyTargets());
    }

    @Test
    void pacelabDownloadsTenMibFromGtlsserver() throws Exception {
        ThirdPartyInterop.pacelabDownloadsFromServer(dir, "gtlsserver", server(), Map.of(), "h3", ThirdPartyInterop.tenMib());
    }

    @Test
    void pacelabDownloadsFiftyConcurrentStreamsFromGtlsserver() throws Exception {
        ThirdPartyInterop.pacelabDownloadsFromServer(dir, "gtlsserver", server(), Map.of(), "h3", ThirdPartyInterop.fiftyFiles());
    }
}
