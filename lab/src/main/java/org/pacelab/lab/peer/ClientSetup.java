package org.pacelab.lab.peer;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Everything a client peer is told for one run.
 *
 * @param host        the host to connect to (an address; the relay's or the server namespace's)
 * @param paths       URL paths to download concurrently, one per stream
 * @param totalBytes  the bytes all paths together hold
 * @param certificate the server's certificate (for pinning; clients do not verify the self-signed name)
 * @param keyLog      where TLS secrets go, or null
 * @param timeoutNs   how long the whole download may take
 * @param protocol    what server and client speak in this run (one of the client's {@link Peer#protocols()})
 */
public record ClientSetup(Path workDir, String host, int port, List<String> paths, long totalBytes, Path certificate,
                          Path keyLog, long timeoutNs, Map<String, String> options, Protocol protocol) {
    public String url(String path) {
        String h = host.contains(":") ? "[" + host + "]" : host;
        return "https://" + h + ":" + port + path;
    }
}
