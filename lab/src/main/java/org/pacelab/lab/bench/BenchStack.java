package org.pacelab.lab.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import org.pacelab.lab.host.Host;
import org.pacelab.lab.peer.Launch;

/**
 * A QUIC (or TCP/TLS) stack as the loopback benchmark runs it: its server serving a directory and its client
 * downloading one file into a directory, each with the stack's default options (a benchmark compares defaults; the
 * lab's peers add experiment settings such as timeouts and flow-control windows, so they are reused only where they
 * add none: nginx's server, picoquicdemo's server and client).
 */
public interface BenchStack {
    /** The name on the command line ({@code --peers}) and in the output. */
    String name();

    /** One line: the programs and what they speak. */
    String description();

    /** One sentence when this stack cannot run here (a program is missing), else null. */
    String unavailable(Host host);

    /** The versions of its programs as installed here. */
    String version(Host host);

    /** The server, listening on 127.0.0.1:{@code port}, serving the files in {@code root}. */
    Launch server(Path workDir, int port, Path root, Path certificate, Path privateKey) throws IOException;

    /** The client, downloading https://127.0.0.1:{@code port}/{@code file} into {@code downloads}. */
    List<String> client(int port, String file, Path downloads) throws IOException;

    /** Where the client leaves the downloaded {@code file}. */
    default Path downloaded(Path downloads, String file) {
        return downloads.resolve(file);
    }
}
