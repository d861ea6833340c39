package org.pacelab.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

import org.pacelab.peers.kwik.KwikClient;
import org.pacelab.peers.kwik.KwikFeatures;
import org.pacelab.peers.kwik.KwikOptions;
import org.pacelab.peers.kwik.KwikTicketFile;
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

    @Option(names = "--cipher-suites", split = ",", paramLabel = "SUITE[,SUITE...]", description = {
            "Offer only these TLS 1.3 cipher suites, in this order: TLS_AES_128_GCM_SHA256, TLS_AES_256_GCM_SHA384,",
            "TLS_CHACHA20_POLY1305_SHA256 (default: Kwik's)."})
    List<String> cipherSuites = List.of();

    @Option(names = "--key-update", description = "Initiate a key update once 64 KiB of response data arrived (RFC 9001 §6).")
    boolean keyUpdate;

    @Option(names = "--negotiate-v2", description = "Start in QUIC v1 and prefer v2 by compatible version negotiation (RFC 9368, RFC 9369).")
    boolean negotiateV2;

    @Option(names = "--session-ticket", converter = PathChecks.OutputFile.class, paramLabel = "FILE", description = {
            "Resume with the session ticket in FILE when it exists (one an earlier run wrote; checked before connecting),",
            "and write the newest ticket the server sends into it (waits up to 5 s for one after the downloads)."})
    Path sessionTicket;

    @Option(names = "--zero-rtt", description = "Send the requests as 0-RTT early data with --session-ticket's ticket (hq-interop only).")
    boolean zeroRtt;

    @Override
    public Integer call() throws Exception {
        long start = System.nanoTime();
        PeerClientOptions.Targets t;
        KwikOptions options;
        KwikFeatures features;
        try {
            t = client.targets();
            options = kwik.options(keylog != null ? keylog : PathChecks.outputFileFromEnvironment("SSLKEYLOGFILE")).withLog(log);
            features = KwikFeatures.client(cipherSuites, keyUpdate, negotiateV2, sessionTicket, zeroRtt);
            if (sessionTicket != null) {
                checkTicket(sessionTicket);
            }
            if (zeroRtt && !t.tls().alpn().equals("hq-interop")) {
                throw new IllegalArgumentException("--zero-rtt sends hq-interop requests as early data; it needs --alpn hq-interop");
            }
            if ((zeroRtt || sessionTicket != null) && client.connectionPerUrl) {
                throw new IllegalArgumentException("--session-ticket and --zero-rtt cannot be combined with --connection-per-url");
            }
        } catch (IllegalArgumentException e) {
            System.err.println("pacelab peer kwik-client: " + e.getMessage());
            return 2;
        }
        try {
            DownloadSink sink = client.sink();
            PeerClientOptions.Targets targets = t;
            KwikOptions transportOptions = options;
            KwikFeatures f = features;
            return client.download(t, requests -> KwikClient.download(targets.server(), targets.tls(), requests, sink,
                    transportOptions, f, client.timeout), start);
        } catch (IOException e) {
            System.err.println("pacelab peer kwik-client: " + e.getMessage());
            return 1;
        }
    }

    /** The ticket file, when there is one, must be a ticket Kwik can read (checked before any connection). */
    private static void checkTicket(Path file) {
        try {
            KwikTicketFile.read(file);
        } catch (IOException e) {
            String why = e instanceof java.nio.file.FileSystemException fs ? FailureReporter.fileProblem(fs)
                    : file + ": " + e.getMessage();
            throw new IllegalArgumentException("--session-ticket cannot be read: " + why
                    + "; valid: a readable ticket file, or a path where none exists yet");
        }
    }
}
