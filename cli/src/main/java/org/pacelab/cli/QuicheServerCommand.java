package org.pacelab.cli;

import java.io.IOException;
import java.util.concurrent.Callable;

import org.pacelab.io.tls.Certificates;
import org.pacelab.peers.quiche.QuicheFeatures;
import org.pacelab.peers.quiche.QuicheOptions;
import org.pacelab.peers.quiche.QuicheServer;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code pacelab peer quiche-server}: quiche's transport (through Netty) serving HTTP/3 and hq-interop. */
@Command(name = "quiche-server", mixinStandardHelpOptions = true,
        description = {"quiche (through Netty's native QUIC codec) serving /bytes/N and files under --root over HTTP/3",
                "and hq-interop (pacelab's HTTP layer on quiche's transport). It does NOT pace: Netty ignores quiche's",
                "per-packet send times, so packets leave in bursts as the window allows.",
                "Prints 'quiche-server listening on ADDR:PORT (...)' on stderr when ready; stops on SIGTERM."})
public final class QuicheServerCommand implements Callable<Integer> {
    @Mixin
    PeerServerOptions server = new PeerServerOptions();

    @Mixin
    QuicheTransportOptions transport = new QuicheTransportOptions();

    @Option(names = "--retry", description = "Answer every Initial without a token with a Retry (Netty's InsecureQuicTokenHandler).")
    boolean retry;

    @Option(names = "--early-data", description = "Accept 0-RTT from clients that resume a session (session tickets are issued either way).")
    boolean earlyData;

    @Override
    public Integer call() throws Exception {
        String bad = server.validate();
        QuicheOptions options;
        Certificates.Identity id;
        try {
            if (bad != null) {
                throw new IllegalArgumentException(bad);
            }
            options = transport.options();
            id = server.identity();
        } catch (IllegalArgumentException | IOException e) {
            System.err.println("pacelab peer quiche-server: " + e.getMessage());
            return 2;
        }
        QuicheServer s;
        try {
            s = QuicheServer.start(server.listen, options, QuicheFeatures.server(retry, earlyData), id, server.content(),
                    server::logRequest);
        } catch (IOException | IllegalStateException e) {
            System.err.println("pacelab peer quiche-server: " + e.getMessage());
            return FailureReporter.socketExitCode(e, ExitCode.FAILED);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(s::close));
        PeerServerOptions.printListening("quiche-server", s.localAddress(), QuicheTransportOptions.describe(options)
                + (retry ? ", Retry" : "") + (earlyData ? ", 0-RTT accepted" : ""));
        s.await();
        return 0;
    }
}
