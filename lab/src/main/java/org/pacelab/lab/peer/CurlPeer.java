package org.pacelab.lab.peer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import org.pacelab.peers.build.Commands;
import org.pacelab.lab.host.Host;
import org.pacelab.lab.scenario.Mode;

/**
 * The TCP/TLS baseline's client: curl over HTTP/2 and TLS, discarding the body and printing the bytes it received
 * per transfer. Honours SSLKEYLOGFILE.
 */
public final class CurlPeer implements Peer {
    public static final String NAME = "curl";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String summary() {
        return "curl, HTTP/2 over TLS (the TCP/TLS baseline's client; netns mode)";
    }

    @Override
    public List<Protocol> protocols() {
        return List.of(Protocol.HTTP2_TLS);
    }

    @Override
    public Set<Role> roles() {
        return EnumSet.of(Role.CLIENT);
    }

    @Override
    public Set<Mode> modes() {
        return EnumSet.of(Mode.NETNS);
    }

    @Override
    public List<PeerOption> options(Role role) {
        return List.of();
    }

    @Override
    public Availability availability(Role role, Host host, PacelabLauncher pacelab) {
        if (host.which("curl").isEmpty()) {
            return Availability.missing("curl is not installed (Debian package curl)", List.of("curl"));
        }
        Commands.Result v = Commands.run("curl", "--version");
        if (!v.output().contains("HTTP2")) {
            return Availability.missing("this curl has no HTTP/2 support (curl --version lists no HTTP2 feature)", List.of("curl"));
        }
        return Availability.USABLE;
    }

    @Override
    public String version(Role role, Host host, PacelabLauncher pacelab) {
        Commands.Result v = Commands.run("curl", "--version");
        return v.ok() ? v.output().lines().findFirst().orElse("curl") : "curl (version unknown)";
    }

    @Override
    public Launch server(ServerSetup setup, PacelabLauncher pacelab) {
        throw new UnsupportedOperationException("curl is a client only");
    }

    @Override
    public Launch client(ClientSetup c, PacelabLauncher pacelab) {
        List<String> cmd = new ArrayList<>(List.of("curl", "--insecure", "--http2", "--silent", "--show-error", "--fail",
                "--max-time", Long.toString(Math.max(1, c.timeoutNs() / 1_000_000_000L)), "--write-out", "%{size_download}\\n"));
        if (c.paths().size() > 1) {
            cmd.addAll(List.of("--parallel", "--parallel-immediate", "--parallel-max", Integer.toString(c.paths().size())));
        }
        for (String p : c.paths()) {
            cmd.addAll(List.of("--output", "/dev/null", c.url(p)));
        }
        return Launch.of(cmd, Ngtcp2Peer.keyLogEnv(c.keyLog()), null);
    }

    @Override
    public ClientOutcome clientOutcome(ClientSetup c, Path stdout) throws IOException {
        long bytes = 0;
        for (String line : Files.readAllLines(stdout, StandardCharsets.UTF_8)) {
            String t = line.strip();
            if (t.matches("[0-9]+")) {
                bytes += Long.parseLong(t);
            }
        }
        return new ClientOutcome(bytes, null);
    }
}
