package org.pacelab.cli;

import java.io.IOException;
import java.util.concurrent.Callable;

import org.pacelab.peers.quiche.QuicheClient;
import org.pacelab.peers.quiche.QuicheOptions;
import org.pacelab.quic.content.DownloadSink;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

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

    @Override
    public Integer call() throws Exception {
        long start = System.nanoTime();
        PeerClientOptions.Targets t;
        QuicheOptions options;
        try {
            t = client.targets();
            options = transport.options();
        } catch (IllegalArgumentException e) {
            System.err.println("pacelab peer quiche-client: " + e.getMessage());
            return 2;
        }
        try {
            DownloadSink sink = client.sink();
            PeerClientOptions.Targets targets = t;
            QuicheOptions transportOptions = options;
            return client.download(t, requests -> QuicheClient.download(targets.server(), targets.tls(), requests, sink,
                    transportOptions, client.timeout), start);
        } catch (IOException | IllegalStateException e) {
            System.err.println("pacelab peer quiche-client: " + e.getMessage());
            return 1;
        }
    }
}
