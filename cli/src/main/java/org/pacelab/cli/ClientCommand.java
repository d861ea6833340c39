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
import java.util.concurrent.Callable;

import javax.net.ssl.X509TrustManager;

import org.pacelab.io.app.FileDownloadSink;
import org.pacelab.io.runtime.ClientLog;
import org.pacelab.io.runtime.QuicClient;
import org.pacelab.io.send.UnsupportedSendStrategyException;
import org.pacelab.io.tls.Certificates;
import org.pacelab.quic.content.DownloadOutput;
import org.pacelab.quic.content.DownloadRequest;
import org.pacelab.quic.content.DownloadResult;
import org.pacelab.quic.content.DownloadSink;
import org.pacelab.quic.tls.TlsConfig;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code pacelab client}: downloads URLs over one QUIC connection and reports goodput. */
@Command(name = "client", mixinStandardHelpOptions = true,
        description = {"Downloads one or more https:// URLs from one server over a single QUIC connection (concurrently),",
                "printing bytes, time to first byte, transfer time and goodput. Exits non-zero on any failure."})
public final class ClientCommand implements Callable<Integer> {
    @Parameters(paramLabel = "URL", arity = "1..*", description = "https://host:port/path URLs, all on the same server.")
    List<String> urls;

    @Option(names = {"-o", "--output"}, paramLabel = "DIR", description = "Save bodies here (default: count and discard).")
    Path output;

    @Option(names = {"-k", "--insecure"}, description = "Do not verify the server's certificate.")
    boolean insecure;

    @Option(names = "--ca", paramLabel = "FILE", description = "PEM file of CA certificates to trust instead of the JDK's.")
    Path ca;

    @Option(names = "--alpn", paramLabel = "PROTO", description = "Application protocol: h3 or hq-interop (default: ${DEFAULT-VALUE}).")
    String alpn = "h3";

    @Option(names = "--timeout", paramLabel = "TIME", converter = UnitConverters.Duration.class,
            description = "Give up after this long (default: 300s).")
    long timeout = 300_000_000_000L;

    @Option(names = "--json", paramLabel = "FILE", description = "Write the client log (timings per download) as JSON.")
    Path json;

    @Mixin
    TransportOptions transport = new TransportOptions();

    @Override
    public Integer call() throws Exception {
        long processStart = System.nanoTime();
        transport.validate();
        String a = alpn.toLowerCase(Locale.ROOT);
        if (!a.equals("h3") && !a.equals("hq-interop")) {
            System.err.println("pacelab client: --alpn '" + alpn + "' is not supported; valid: h3, hq-interop.");
            return 2;
        }
        List<DownloadRequest> requests = new ArrayList<>();
        URI first = null;
        for (String u : urls) {
            URI uri;
            try {
                uri = new URI(u);
                requests.add(DownloadRequest.of(uri));
            } catch (URISyntaxException | IllegalArgumentException e) {
                System.err.println("pacelab client: '" + u + "' is not an https://host:port/path URL.");
                return 2;
            }
            if (first == null) {
                first = uri;
            } else if (!first.getHost().equals(uri.getHost()) || port(first) != port(uri)) {
                System.err.println("pacelab client: all URLs must name the same server; " + u + " differs from " + first);
                return 2;
            }
        }
        InetSocketAddress server;
        try {
            server = new InetSocketAddress(InetAddress.getByName(first.getHost()), port(first));
        } catch (UnknownHostException e) {
            System.err.println("pacelab client: cannot resolve host '" + first.getHost() + "'.");
            return 2;
        }
        X509TrustManager trust = null;
        if (ca != null) {
            try {
                trust = Certificates.trustManager(ca);
            } catch (IOException e) {
                System.err.println("pacelab client: " + e.getMessage());
                return 2;
            }
        }
        String sni = first.getHost().startsWith("[") ? first.getHost().substring(1, first.getHost().length() - 1) : first.getHost();
        TlsConfig tls = TlsConfig.client(List.of(a), transport.cipherSuites(), sni, trust, !insecure);
        DownloadSink sink = output != null ? new FileDownloadSink(output) : DISCARD;
        QuicClient.Outcome o;
        try {
            o = QuicClient.download(server, transport.connectionConfig(tls, "client"), requests, sink,
                    timeout, (int) Math.min(Integer.MAX_VALUE, transport.udpBuffer), transport.sendConfig());
        } catch (UnsupportedSendStrategyException e) {
            System.err.println("pacelab client: " + e.getMessage());
            return 2;
        } catch (java.io.UncheckedIOException e) {
            if (e.getCause() instanceof UnsupportedSendStrategyException u) {
                System.err.println("pacelab client: " + u.getMessage());
                return 2;
            }
            throw e;
        }
        long processEnd = System.nanoTime();
        boolean ok = o.allSucceeded();
        for (DownloadResult r : o.results()) {
            System.out.println(ClientLog.describe(r));
        }
        if (o.results().isEmpty()) {
            System.out.println("no download finished: " + (o.timedOut() ? "timed out" : "connection closed: " + o.closeReason()));
        }
        if (json != null) {
            ClientLog.write(json, o, processStart, processEnd);
        }
        return ok ? 0 : 1;
    }

    private static int port(URI u) {
        return u.getPort() < 0 ? 443 : u.getPort();
    }

    private static final DownloadSink DISCARD = request -> new DownloadOutput() {
        @Override
        public void write(java.nio.ByteBuffer data) {
            data.position(data.limit());
        }

        @Override
        public void commit() {}

        @Override
        public void abort() {}
    };
}
