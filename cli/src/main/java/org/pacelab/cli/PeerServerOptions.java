package org.pacelab.cli;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.pacelab.io.app.ServerContent;
import org.pacelab.io.tls.Certificates;
import org.pacelab.quic.content.ContentSource;
import org.pacelab.quic.content.ServedRequest;
import org.pacelab.quic.content.SyntheticContent;

import picocli.CommandLine.Option;

/** What every peer server takes: where to listen, what to serve, its certificate, and whether to log requests. */
final class PeerServerOptions {
    @Option(names = "--listen", paramLabel = "ADDR:PORT", converter = SocketAddressConverter.class,
            description = "Address to listen on (default: 127.0.0.1:4433; port 0 picks a free one, printed when ready).")
    InetSocketAddress listen = new InetSocketAddress("127.0.0.1", 4433);

    @Option(names = "--root", converter = PathChecks.InputDirectory.class, paramLabel = "DIR", description = "Directory to serve files from (default: only /bytes/N).")
    Path root;

    @Option(names = "--cert", converter = PathChecks.InputFile.class, paramLabel = "FILE", description = "PEM certificate chain; default: a self-signed EC certificate.")
    Path cert;

    @Option(names = "--key", converter = PathChecks.InputFile.class, paramLabel = "FILE", description = "PEM private key for --cert.")
    Path key;

    @Option(names = {"-v", "--verbose"}, description = "Print each request served.")
    boolean verbose;

    /** Checks the options; returns an error sentence (without the command name) or null. */
    String validate() {
        if ((cert == null) != (key == null)) {
            return "--cert and --key go together; give both PEM files or neither (a self-signed certificate is generated).";
        }
        if (root != null && !Files.isDirectory(root)) {
            return "--root " + root + " is not a directory.";
        }
        return null;
    }

    Certificates.Identity identity() throws IOException {
        return cert != null ? Certificates.load(cert, key) : Certificates.selfSigned(List.of("localhost", "127.0.0.1", "::1"));
    }

    ContentSource content() {
        return root != null ? ServerContent.of(root) : SyntheticContent.only();
    }

    void logRequest(ServedRequest r) {
        if (verbose) {
            System.err.println(r.method() + " " + r.target() + " -> " + r.status() + " " + r.bodyBytes() + " bytes"
                    + (r.error() == null ? "" : " (" + r.error() + ")"));
        }
    }

    /** The readiness line runners wait for. */
    static void printListening(String peer, InetSocketAddress bound, String details) {
        System.err.println(peer + " listening on " + bound.getHostString() + ":" + bound.getPort() + " (" + details + ")");
    }
}
