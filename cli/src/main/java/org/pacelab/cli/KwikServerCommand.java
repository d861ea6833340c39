package org.pacelab.cli;

import java.io.IOException;
import java.util.concurrent.Callable;

import org.pacelab.io.tls.Certificates;
import org.pacelab.peers.kwik.KwikFeatures;
import org.pacelab.peers.kwik.KwikOptions;
import org.pacelab.peers.kwik.KwikServer;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code pacelab peer kwik-server}: Kwik with Flupke's HTTP/3 server (and hq-interop). */
@Command(name = "kwik-server", mixinStandardHelpOptions = true,
        description = {"Kwik serving /bytes/N and files under --root over HTTP/3 (Flupke) and hq-interop.",
                "NewReno only, no pacing, no qlog, no key log (Kwik's server cannot write one).",
                "Prints 'kwik-server listening on ADDR:PORT (...)' on stderr when ready; stops on SIGTERM."})
public final class KwikServerCommand implements Callable<Integer> {
    @Mixin
    PeerServerOptions server = new PeerServerOptions();

    @Mixin
    KwikTransportOptions kwik = new KwikTransportOptions();

    @Option(names = "--retry", description = "Send a Retry before every connection (Kwik's retryRequired).")
    boolean retry;

    @Option(names = "--v2", description = {"Speak QUIC v2 (RFC 9369) beside v1 and switch to it when the client prefers it",
            "(compatible version negotiation, RFC 9368)."})
    boolean v2;

    @Override
    public Integer call() throws Exception {
        String bad = server.validate();
        Certificates.Identity id;
        KwikOptions options;
        try {
            if (bad != null) {
                throw new IllegalArgumentException(bad);
            }
            options = kwik.options(null);
            id = server.identity();
        } catch (IllegalArgumentException | IOException e) {
            System.err.println("pacelab peer kwik-server: " + e.getMessage());
            return 2;
        }
        KwikServer s;
        try {
            s = KwikServer.start(server.listen, options, KwikFeatures.server(retry, v2), id, server.content(), server::logRequest);
        } catch (IOException e) {
            // Kwik's own message is the JDK's bare "Address already in use": name the address
            String why = FailureReporter.isAddressUnavailable(e) ? "cannot listen on " + server.listen.getHostString() + ":"
                    + server.listen.getPort() + ": " + e.getMessage() + " (another process is bound to it, or the address "
                    + "is not this host's; choose another --listen)" : e.getMessage();
            System.err.println("pacelab peer kwik-server: " + why);
            return FailureReporter.socketExitCode(e, ExitCode.FAILED);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(s::close));
        PeerServerOptions.printListening("kwik-server", s.localAddress(), "Kwik + Flupke, NewReno, unpaced"
                + (retry ? ", Retry" : "") + (v2 ? ", QUIC v2 and v1" : ""));
        s.await();
        return 0;
    }
}
