package org.pacelab.cli;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.pacelab.io.app.FileDownloadSink;
import org.pacelab.io.runtime.ClientLog;
import org.pacelab.io.runtime.QuicClient;
import org.pacelab.peers.ClientTls;
import org.pacelab.quic.content.DownloadRequest;
import org.pacelab.quic.content.DownloadResult;
import org.pacelab.quic.content.DownloadSink;

import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** What every peer client takes (URLs on one server, output, TLS, timeout, JSON log) and how it reports. */
final class PeerClientOptions {
    @Parameters(paramLabel = "URL", arity = "1..*", description = "https://host:port/path URLs, all on the same server.")
    List<String> urls;

    @Option(names = {"-o", "--output"}, converter = PathChecks.OutputDirectory.class, paramLabel = "DIR", description = "Save bodies here (default: count and discard).")
    Path output;

    @Option(names = {"-k", "--insecure"}, description = "Do not verify the server's certificate.")
    boolean insecure;

    @Option(names = "--ca", converter = PathChecks.InputFile.class, paramLabel = "FILE", description = "PEM file of CA certificates to trust instead of the JDK's.")
    Path ca;

    @Option(names = "--alpn", paramLabel = "PROTO", description = "Application protocol: h3 or hq-interop (default: ${DEFAULT-VALUE}).")
    String alpn = "h3";

    @Option(names = "--timeout", paramLabel = "TIME", converter = UnitConverters.Duration.class,
            description = "Give up after this long (default: 300s); with --connection-per-url, each connection.")
    long timeout = 300_000_000_000L;

    @Option(names = "--connection-per-url", description = {"Download each URL over its own new connection, one after the",
            "other, each a full handshake (no resumption): the QUIC Interop Runner's multiconnect."})
    boolean connectionPerUrl;

    @Option(names = "--json", converter = PathChecks.OutputFile.class, paramLabel = "FILE", description = "Write the client log (timings per download) as JSON.")
    Path json;

    /** The server, the requests and the TLS settings named by the URLs and options. */
    record Targets(InetSocketAddress server, List<DownloadRequest> requests, ClientTls tls) {}

    /**
     * Parses the URLs.
     *
     * @throws IllegalArgumentException with one sentence naming the bad URL or option
     */
    Targets targets() {
        String a = alpn.toLowerCase(Locale.ROOT);
        if (!a.equals("h3") && !a.equals("hq-interop")) {
            throw new IllegalArgumentException("--alpn '" + alpn + "' is not supported; valid: h3, hq-interop.");
        }
        if (connectionPerUrl && json != null) {
            throw new IllegalArgumentException("--json writes the log of one connection; it cannot be combined with "
                    + "--connection-per-url.");
        }
        List<DownloadRequest> requests = new ArrayList<>();
        URI first = null;
        for (String u : urls) {
            URI uri;
            try {
                uri = new URI(u);
                requests.add(DownloadRequest.of(uri));
            } catch (URISyntaxException | IllegalArgumentException e) {
                throw new IllegalArgumentException("'" + u + "' is not an https://host:port/path URL.");
            }
            if (first == null) {
                first = uri;
            } else if (!first.getHost().equals(uri.getHost()) || port(first) != port(uri)) {
                throw new IllegalArgumentException("all URLs must name the same server; " + u + " differs from " + first);
            }
        }
        String host = first.getHost();
        String sni = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
        try {
            InetSocketAddress server = new InetSocketAddress(InetAddress.getByName(sni), port(first));
            return new Targets(server, requests, new ClientTls(a, sni, ca, insecure));
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("cannot resolve host '" + host + "'.");
        }
    }

    DownloadSink sink() throws IOException {
        return output != null ? new FileDownloadSink(output) : DownloadSink.DISCARD;
    }

    /**
     * Runs the downloads: over one connection, or with {@code --connection-per-url} over one connection each, one after
     * the other; prints one line per download (and per connection); returns the exit code.
     */
    int download(Targets t, ConnectionPerUrl.Downloader downloader, long processStart) throws IOException {
        return connectionPerUrl ? ConnectionPerUrl.run(t.requests(), downloader, System.out, System.err)
                : report(downloader.download(t.requests()), processStart);
    }

    /** Prints one line per download (and the JSON log when asked); returns the exit code. */
    int report(QuicClient.Outcome o, long processStart) throws IOException {
        for (DownloadResult r : o.results()) {
            System.out.println(ClientLog.describe(r));
        }
        if (o.results().isEmpty()) {
            System.out.println("no download finished: " + (o.timedOut() ? "timed out" : o.closeReason()));
        }
        if (json != null) {
            ClientLog.write(json, o, processStart, System.nanoTime());
        }
        return o.allSucceeded() ? 0 : 1;
    }

    private static int port(URI u) {
        return u.getPort() < 0 ? 443 : u.getPort();
    }
}
