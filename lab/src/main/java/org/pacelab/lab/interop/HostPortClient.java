package org.pacelab.lab.interop;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import org.pacelab.lab.peer.Launch;

/**
 * The client processes of a case for a peer whose client takes the server's host and port as arguments (ngtcp2's
 * gtlsclient, picoquicdemo): one process per group of URLs ({@link EndpointSetup#urlsPerProcess()}), each
 * {@code BASE HOST PORT URL-ARGUMENTS}, the host without IPv6 brackets, the key log in {@code SSLKEYLOGFILE}.
 */
final class HostPortClient {
    private HostPortClient() {}

    /**
     * @param base         the program and its options
     * @param urlArguments how the peer takes one process's URLs as arguments
     */
    static List<Launch> processes(EndpointSetup s, List<String> base, Function<List<String>, List<String>> urlArguments) {
        URI first = s.firstUrl();
        List<String> hostPort = List.of(first.getHost().replace("[", "").replace("]", ""), Integer.toString(first.getPort()));
        List<Launch> steps = new ArrayList<>();
        for (List<String> urls : s.urlsPerProcess()) {
            List<String> cmd = new ArrayList<>(base);
            cmd.addAll(hostPort);
            cmd.addAll(urlArguments.apply(urls));
            steps.add(Launch.of(cmd, s.keyLogEnvironment(), null));
        }
        return steps;
    }
}
