package org.pacelab.cli;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.Callable;

import javax.net.ssl.X509TrustManager;

import org.pacelab.io.runtime.QuicClient;
import org.pacelab.io.send.UnsupportedSendStrategyException;
import org.pacelab.io.tls.Certificates;
import org.pacelab.quic.tls.TlsConfig;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code pacelab client}: downloads URLs over one QUIC connection and reports goodput. */
@Command(name = "client", mixinStandardHelpOptions = true,
        description = {"Downloads one or more https:// URLs from one server over a single QUIC connection (concurrently),",
                "printing bytes, time to first byte, transfer time and goodput. Exits non-zero on any failure."})
public final class ClientCommand implements Callable<Integer> {
    @Mixin
    PeerClientOptions client = new PeerClientOptions();

    @Mixin
    TransportOptions transport = new TransportOptions();

    @Option(names = "--no-preferred-address", description = {"Stay on the handshake's path: do not move to a preferred",
            "address the server offers (RFC 9000 §9.6; by default the client validates it and moves there)."})
    boolean noPreferredAddress;

    @Override
    public Integer call() throws Exception {
        long processStart = System.nanoTime();
        PeerClientOptions.Targets t;
        X509TrustManager trust = null;
        try {
            transport.validate();
            t = client.targets();
            if (t.tls().caFile() != null) {
                trust = Certificates.trustManager(t.tls().caFile());
            }
        } catch (IllegalArgumentException e) {
            System.err.println("pacelab client: " + e.getMessage());
            return 2;
        } catch (IOException e) {
            System.err.println("pacelab client: --ca " + client.ca + ": cannot read PEM certificates ("
                    + (e instanceof java.nio.file.NoSuchFileException ? "no such file" : e.getMessage()) + ").");
            return 2;
        }
        TlsConfig tls = TlsConfig.client(List.of(t.tls().alpn()), transport.cipherSuites(), t.tls().serverName(), trust,
                !t.tls().insecure());
        QuicClient.Outcome o;
        try {
            if (transport.warmUpClient(t.tls().alpn())) {
                processStart = System.nanoTime(); // the client log's process time excludes the warm-up
            }
            o = QuicClient.download(t.server(), transport.connectionConfig(tls, "client").withUsePreferredAddress(!noPreferredAddress),
                    t.requests(), client.sink(),
                    client.timeout, transport.udpBufferBytes(), transport.sendConfig());
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
        return client.report(o, processStart);
    }
}
