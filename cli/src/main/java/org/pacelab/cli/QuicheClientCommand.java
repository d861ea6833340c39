package org.pacelab.cli;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.Callable;

import io.netty.handler.codec.quic.QuicSslContext;

import org.pacelab.peers.quiche.QuicheClient;
import org.pacelab.peers.quiche.QuicheFeatures;
import org.pacelab.peers.quiche.QuicheOptions;
import org.pacelab.quic.content.DownloadRequest;
import org.pacelab.quic.content.DownloadSink;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code pacelab peer quiche-client}: downloads URLs with quiche's transport (through Netty). */
@Command(name = "quiche-client", mixinStandardHelpOptions = true,
        description = {"Downloads https:// URLs from one server over one quiche connection (through Netty's native QUIC",
                "codec; HTTP/3 or hq-interop by pacelab's HTTP layer), concurrently, and prints bytes, time to first byte,",
                "transfer time and goodput (--connection-per-url: a new connection per URL, one after the other). It does",
                "NOT pace. Exits non-zero on any failure."})
public final class QuicheClientCommand implements Callable<Integer> {
    @Mixin
    PeerClientOptions client = new PeerClientOptions();

    @Mixin
    QuicheTransportOptions transport = new QuicheTransportOptions();

    @Option(names = "--resume", description = {"Two connections, one after the other, in this process: the first downloads the",
            "first URL, the second the rest, resuming the first's TLS session (Netty's client session cache)."})
    boolean resume;

    @Option(names = "--zero-rtt", description = "As --resume, with the second connection's requests sent as 0-RTT early data.")
    boolean zeroRtt;

    @Override
    public Integer call() throws Exception {
        long start = System.nanoTime();
        PeerClientOptions.Targets t;
        QuicheOptions options;
        try {
            t = client.targets();
            options = transport.options();
            if ((resume || zeroRtt) && client.connectionPerUrl) {
                throw new IllegalArgumentException("--resume and --zero-rtt cannot be combined with --connection-per-url");
            }
            if ((resume || zeroRtt) && t.requests().size() < 2) {
                throw new IllegalArgumentException("--resume and --zero-rtt need at least two URLs: the first for the first "
                        + "connection, the rest for the one that resumes");
            }
        } catch (IllegalArgumentException e) {
            System.err.println("pacelab peer quiche-client: " + e.getMessage());
            return 2;
        }
        try {
            DownloadSink sink = client.sink();
            PeerClientOptions.Targets targets = t;
            QuicheOptions transportOptions = options;
            if (resume || zeroRtt) {
                QuicheFeatures features = QuicheFeatures.client(resume, zeroRtt);
                QuicSslContext ssl = QuicheClient.tlsContext(t.tls(), options, features.zeroRtt());
                List<DownloadRequest> all = t.requests();
                return ConnectionPerUrl.runGroups(List.of(all.subList(0, 1), all.subList(1, all.size())),
                        requests -> QuicheClient.download(targets.server(), targets.tls(), ssl, requests, sink, transportOptions,
                                client.timeout, features.zeroRtt()), // 0-RTT only where a session resumes: the second
                        System.out, System.err);
            }
            return client.download(t, requests -> QuicheClient.download(targets.server(), targets.tls(), requests, sink,
                    transportOptions, client.timeout), start);
        } catch (IOException | IllegalStateException e) {
            System.err.println("pacelab peer quiche-client: " + e.getMessage());
            return 1;
        }
    }
}
