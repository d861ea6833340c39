package org.pacelab.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import org.pacelab.peers.kwik.KwikClient;
import org.pacelab.peers.kwik.KwikOptions;
import org.pacelab.quic.content.DownloadSink;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code pacelab peer kwik-client}: downloads URLs with Kwik (HTTP/3 through Flupke, or hq-interop). */
@Command(name = "kwik-client", mixinStandardHelpOptions = true,
        description = {"Downloads https:// URLs from one server over one Kwik connection (HTTP/3 through Flupke, or",
                "hq-interop), concurrently, and prints bytes, time to first byte, transfer time and goodput",
                "(--connection-per-url: a new connection per URL, one after the other). NewReno only, no pacing, no qlog (--log keeps Kwik's own log). Exits non-zero on any failure."})
public final class KwikClientCommand implements Callable<Integer> {
    @Mixin
    PeerClientOptions client = new PeerClientOptions();

    @Option(names = "--keylog", converter = PathChecks.OutputFile.class, paramLabel = "FILE", description = "Write TLS secrets to this NSS key log (default: $SSLKEYLOGFILE).")
    Path keylog;

    @Option(names = "--log", converter = PathChecks.OutputFile.class, paramLabel = "FILE", description = {
            "Append Kwik's log of each connection to this file: packets with their frames, loss recovery, congestion",
            "control, info, warnings and debug, times to the millisecond (written out when the connection ends)."})
    Path log;

    @Mixin
    KwikTransportOptions kwik = new KwikTransportOptions();

    @Override
    public Integer call() throws Exception {
        long start = System.nanoTime();
        PeerClientOptions.Targets t;
        KwikOptions options;
        try {
            t = client.targets();
            options = kwik.options(keylog != null ? keylog : QuicheTransportOptions.envPath("SSLKEYLOGFILE")).withLog(log);
        } catch (IllegalArgumentException e) {
            System.err.println("pacelab peer kwik-client: " + e.getMessage());
            return 2;
        }
        try {
            DownloadSink sink = client.sink();
            PeerClientOptions.Targets targets = t;
            KwikOptions transportOptions = options;
            return client.download(t, requests -> KwikClient.download(targets.server(), targets.tls(), requests, sink,
                    transportOptions, client.timeout), start);
        } catch (IOException e) {
            System.err.println("pacelab peer kwik-client: " + e.getMessage());
            return 1;
        }
    }
}
