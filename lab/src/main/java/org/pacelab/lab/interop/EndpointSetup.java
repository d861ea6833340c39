package org.pacelab.lab.interop;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;

/**
 * What one endpoint of a test run is told — the QUIC Interop Runner's interface (ROLE, TESTCASE, REQUESTS,
 * SSLKEYLOGFILE, QLOGDIR, /www, /downloads, /certs) with local addresses instead of Docker's.
 *
 * @param workDir     the endpoint's own directory (logs, session files)
 * @param testname    what the runner tells it ({@code TESTCASE})
 * @param alpn        the application protocol of this run ({@code hq-interop} or {@code h3})
 * @param listen      server: the address to listen on
 * @param preferred   server: a second address to listen on and offer as preferred address, or null
 * @param advertised  server: the address to advertise for {@code preferred} (the relay's route to it), or null
 * @param urls        client: the URLs to download (the runner's REQUESTS)
 * @param www         server: the files to serve
 * @param downloads   client: where downloads go (one file per URL, named by its last path segment)
 * @param certificates server: directory with {@code cert.pem} (leaf first) and {@code priv.key}
 * @param keyLog      where TLS secrets go (NSS key log), or null
 * @param qlogDir     where qlog files go, or null
 * @param timeoutNs   how long the client may take
 */
public record EndpointSetup(Path workDir, String testname, String alpn, InetSocketAddress listen, InetSocketAddress preferred,
                            InetSocketAddress advertised, List<String> urls, Path www, Path downloads, Path certificates,
                            Path keyLog, Path qlogDir, long timeoutNs) {
    public EndpointSetup {
        urls = List.copyOf(urls);
    }

    public Path certificate() {
        return certificates.resolve("cert.pem");
    }

    public Path privateKey() {
        return certificates.resolve("priv.key");
    }

    /**
     * Whether each URL goes over its own new connection, one after the other ({@code TESTCASE=multiconnect}: the
     * runner's handshakeloss and handshakecorruption). A client that can do that in one process is started once with
     * every URL; the others once per URL ({@link #urlsPerProcess()}).
     */
    public boolean connectionPerUrl() {
        return testname.equals("multiconnect");
    }

    /**
     * The URLs each client process fetches, one process after the other, for a client that opens one connection per
     * process: one per URL for multiconnect; the first URL, then the rest for resumption and zerortt (the second
     * connection resumes the first's session); all at once otherwise.
     */
    public List<List<String>> urlsPerProcess() {
        return switch (testname) {
            case "multiconnect" -> urls.stream().map(List::of).toList(); // connectionPerUrl()
            case "resumption", "zerortt" -> List.of(urls.subList(0, 1), urls.subList(1, urls.size()));
            default -> List.of(urls);
        };
    }

    /** The key log as peers read it from the environment: {@code SSLKEYLOGFILE}, or nothing without a key log. */
    public java.util.Map<String, String> keyLogEnvironment() {
        return keyLog == null ? java.util.Map.of() : java.util.Map.of("SSLKEYLOGFILE", keyLog.toString());
    }

    /** The server's host and port from the first URL. */
    public java.net.URI firstUrl() {
        return java.net.URI.create(urls.getFirst());
    }
}
