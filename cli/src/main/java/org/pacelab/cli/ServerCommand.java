package org.pacelab.cli;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

import org.pacelab.io.app.ServerContent;
import org.pacelab.io.runtime.Preparation;
import org.pacelab.io.runtime.QuicServer;
import org.pacelab.io.send.SendConfig;
import org.pacelab.io.send.UnsupportedSendStrategyException;
import org.pacelab.io.tls.Certificates;
import org.pacelab.quic.conn.ConnectionConfig;
import org.pacelab.quic.conn.PreferredAddressConfig;
import org.pacelab.quic.content.ContentSource;
import org.pacelab.quic.content.SyntheticContent;
import org.pacelab.quic.tls.TlsConfig;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code pacelab server}: serves files and {@code /bytes/N} over HTTP/3 and hq-interop. */
@Command(name = "server", mixinStandardHelpOptions = true,
        description = {"Serves files under --root and synthetic bodies at /bytes/N over HTTP/3 (h3) and hq-interop.",
                "Never serves anything outside the root. Runs until interrupted."})
public final class ServerCommand implements Callable<Integer> {
    @Option(names = "--listen", paramLabel = "ADDR:PORT", converter = SocketAddressConverter.class,
            description = "Address to listen on (default: 127.0.0.1:4433).")
    InetSocketAddress listen = new InetSocketAddress("127.0.0.1", 4433);

    @Option(names = "--root", converter = PathChecks.InputDirectory.class, paramLabel = "DIR", description = "Directory to serve files from (default: only /bytes/N).")
    Path root;

    @Option(names = "--cert", converter = PathChecks.InputFile.class, paramLabel = "FILE", description = "PEM certificate chain (RSA or EC); default: a self-signed one.")
    Path cert;

    @Option(names = "--key", converter = PathChecks.InputFile.class, paramLabel = "FILE", description = "PEM private key for --cert.")
    Path key;

    @Option(names = "--cert-out", converter = PathChecks.OutputFile.class, paramLabel = "FILE",
            description = "Write the generated self-signed certificate here (for a client's --ca).")
    Path certOut;

    @Option(names = "--alpn", split = ",", paramLabel = "PROTO", description = "Application protocols: h3, hq-interop (default: both).")
    List<String> alpn = List.of("h3", "hq-interop");

    @Option(names = "--retry", description = "Validate client addresses with a Retry before creating state.")
    boolean retry;

    @Option(names = {"-v", "--verbose"}, description = "Print each request served.")
    boolean verbose;

    @Mixin
    TransportOptions transport = new TransportOptions();

    @Mixin
    PreferredAddressOptions preferredAddress = new PreferredAddressOptions();

    @Override
    public Integer call() throws Exception {
        transport.validate();
        if ((cert == null) != (key == null)) {
            System.err.println("pacelab server: --cert and --key go together; give both PEM files or neither (a self-signed certificate is generated).");
            return 2;
        }
        PreferredAddressConfig offered;
        try {
            offered = preferredAddress.offer(listen);
        } catch (IllegalArgumentException e) {
            System.err.println("pacelab server: " + e.getMessage());
            return 2;
        }
        if (root != null && !Files.isDirectory(root)) {
            System.err.println("pacelab server: --root " + root + " is not a directory.");
            return 2;
        }
        Certificates.Identity id;
        try {
            id = cert != null ? Certificates.load(cert, key) : Certificates.selfSigned(List.of("localhost", "127.0.0.1", "::1"));
        } catch (IOException e) {
            System.err.println("pacelab server: " + e.getMessage());
            return 2;
        }
        if (certOut != null) {
            Files.writeString(certOut, Certificates.toPem(id.leaf()), StandardCharsets.US_ASCII);
        }
        TlsConfig tls = TlsConfig.server(alpn, transport.cipherSuites(), id.chain(), id.key());
        // the first handshake's work (the signature with this key above all) while the server starts and waits
        Preparation.serverHandshakeInBackground(tls);
        ContentSource content = root != null ? ServerContent.of(root) : SyntheticContent.only();
        SendConfig send = transport.sendConfig();
        ConnectionConfig config = transport.connectionConfig(tls, "server").withPreferredAddress(offered);
        try {
            // the warm-up's client has nowhere to move to
            transport.warmUpServer(config.withPreferredAddress(null));
        } catch (UnsupportedSendStrategyException e) {
            System.err.println("pacelab server: " + e.getMessage());
            return 2;
        }
        QuicServer server;
        try {
            server = QuicServer.start(listen, offered == null ? null : preferredAddress.preferred, config, content, retry,
                    transport.udpBufferBytes(), send,
                    r -> {
                        if (verbose) {
                            System.err.println(r.method() + " " + r.target() + " -> " + r.status() + " " + r.bodyBytes()
                                    + " bytes" + (r.error() == null ? "" : " (" + r.error() + ")"));
                        }
                    });
        } catch (UnsupportedSendStrategyException e) {
            System.err.println("pacelab server: " + e.getMessage());
            return 2;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                server.close();
            } catch (IOException ignored) {
                // exiting anyway
            }
            System.err.println("pacelab server: stopped; " + describe(server.counters()));
            System.err.flush();
        }));
        InetSocketAddress bound = server.localAddress();
        InetSocketAddress second = server.preferredLocalAddress();
        System.err.println("pacelab server listening on " + bound.getHostString() + ":" + bound.getPort()
                + (second == null ? "" : " and on " + PreferredAddressOptions.format(second) + ", offered as the preferred address "
                + PreferredAddressOptions.format(offered.ipv4() != null ? offered.ipv4() : offered.ipv6()))
                + " (" + String.join(", ", alpn) + "; cc "
                + transport.congestionConfig().controller().algorithm().optionValue()
                + ", slow start " + transport.congestionConfig().controller().slowStart().rule().optionValue()
                + ", pacer " + transport.congestionConfig().pacing().pacer().optionValue() + "; send " + send.describe() + ")");
        server.await();
        if (server.failure() != null) {
            Throwable cause = server.failure() instanceof java.io.UncheckedIOException u ? u.getCause() : server.failure();
            if (cause instanceof UnsupportedSendStrategyException) {
                System.err.println("pacelab server: stopped: " + cause.getMessage());
                return 2;
            }
            System.err.println("pacelab server: stopped: " + server.failure());
            return 1;
        }
        return 0;
    }

    /** The server's counters on one line, e.g. "connections_accepted=1000 connections_peak=1000 ...". */
    static String describe(java.util.Map<String, Long> counters) {
        StringBuilder sb = new StringBuilder();
        counters.forEach((k, v) -> sb.append(sb.isEmpty() ? "" : " ").append(k).append('=').append(v));
        return sb.toString();
    }
}
