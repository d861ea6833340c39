package org.pacelab.lab.peer;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The command-line conventions every peer program written in this project shares ({@code pacelab server},
 * {@code pacelab peer quiche-server}, the quic-go and aioquic programs, ...): servers take {@code --listen --root
 * --cert --key}, clients take the URLs, {@code --insecure}, {@code --json} (the client log) and {@code --timeout};
 * options become {@code --name value}.
 */
final class PacelabCommandLines {
    static final String CLIENT_LOG = "client.json";

    private PacelabCommandLines() {}

    static List<String> server(String subcommand, ServerSetup s) {
        return server(List.of(subcommand.split(" ")), s);
    }

    /** A server's command: {@code program} (the program and its first arguments), then the conventional options. */
    static List<String> server(List<String> program, ServerSetup s) {
        List<String> args = new ArrayList<>(program);
        args.addAll(List.of("--listen", hostPort(s.address(), s.port()), "--root", s.documentRoot().toString(),
                "--cert", s.certificate().toString(), "--key", s.privateKey().toString()));
        return args;
    }

    static List<String> client(String subcommand, ClientSetup c) {
        return client(List.of(subcommand.split(" ")), c);
    }

    /** A client's command: {@code program} (the program and its first arguments), then the conventional options. */
    static List<String> client(List<String> program, ClientSetup c) {
        List<String> args = new ArrayList<>(program);
        args.addAll(List.of("--insecure", "--json", c.workDir().resolve(CLIENT_LOG).toString(),
                "--timeout", Math.max(1, c.timeoutNs() / 1_000_000) + "ms"));
        return args;
    }

    static void urls(List<String> args, ClientSetup c) {
        for (String p : c.paths()) {
            args.add(c.url(p));
        }
    }

    /** The log options: {@code --qlog-dir DIR} and {@code --keylog FILE}, each when given (not null). */
    static void logs(List<String> args, Path qlogDir, Path keyLog) {
        if (qlogDir != null) {
            args.addAll(List.of("--qlog-dir", qlogDir.toString()));
        }
        if (keyLog != null) {
            args.addAll(List.of("--keylog", keyLog.toString()));
        }
    }

    static void options(List<String> args, Map<String, String> options) {
        options.forEach((k, v) -> {
            args.add("--" + k);
            args.add(v);
        });
    }

    static String hostPort(String host, int port) {
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }
}
