package org.pacelab.lab.peer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

import org.pacelab.lab.host.Host;
import org.pacelab.lab.scenario.Mode;

/**
 * ngtcp2 through Debian's GnuTLS example programs {@code gtlsserver} / {@code gtlsclient} (HTTP/3). The library
 * paces in user space (interval pacing); the server sends up to {@code gso} datagrams per GSO call (default 64).
 * Both honour SSLKEYLOGFILE; qlog timestamps are whole milliseconds.
 */
public final class Ngtcp2Peer implements Peer {
    public static final String NAME = "ngtcp2";
    static final String DOWNLOADS = "downloads";

    private static final PeerOption CC = new PeerOption("cc", "cubic, newreno (= reno), reno, bbr, bbr2", v ->
            ccName(v) != null ? null : "'" + v + "' is not a congestion controller of ngtcp2; valid values: cubic, newreno, reno, bbr, bbr2");
    private static final List<PeerOption> SERVER_OPTIONS = List.of(CC,
            PeerOption.integer("gso", 1, 64), PeerOption.integer("max-udp-payload", 1200, 65527));
    private static final List<PeerOption> CLIENT_OPTIONS = List.of(CC, PeerOption.integer("max-udp-payload", 1200, 65527));

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String summary() {
        return "ngtcp2 (Debian gtlsserver/gtlsclient, GnuTLS): interval pacing in user space, GSO up to 64 datagrams";
    }

    @Override
    public List<Protocol> protocols() {
        return List.of(Protocol.H3);
    }

    @Override
    public List<PeerOption> options(Role role) {
        return role == Role.SERVER ? SERVER_OPTIONS : CLIENT_OPTIONS;
    }

    @Override
    public String caveat() {
        return "ngtcp2's qlog has whole-millisecond timestamps, too coarse for pacing precision";
    }

    @Override
    public Availability availability(Role role, Host host, PacelabLauncher pacelab) {
        String program = program(role);
        return host.which(program).isPresent() ? Availability.USABLE
                : Availability.missing(program + " is not installed (Debian package " + pkg(role) + ")", List.of(pkg(role)));
    }

    @Override
    public String version(Role role, Host host, PacelabLauncher pacelab) {
        String v = host.packageVersion(pkg(role));
        return "ngtcp2 " + (v == null ? "(version unknown)" : v);
    }

    private static String program(Role role) {
        return role == Role.SERVER ? "gtlsserver" : "gtlsclient";
    }

    private static String pkg(Role role) {
        return role == Role.SERVER ? "ngtcp2-server" : "ngtcp2-client";
    }

    static String ccName(String v) {
        return switch (v.strip().toLowerCase(Locale.ROOT)) {
            case "cubic" -> "cubic";
            case "newreno", "reno" -> "reno";
            case "bbr" -> "bbr";
            case "bbr2" -> "bbr2";
            default -> null;
        };
    }

    @Override
    public Launch server(ServerSetup s, PacelabLauncher pacelab) {
        List<String> cmd = new ArrayList<>(List.of(program(Role.SERVER), "-q", "-d", s.documentRoot().toString()));
        Map<String, String> o = s.options();
        if (o.containsKey("cc")) {
            cmd.add("--cc=" + ccName(o.get("cc")));
        }
        if (o.containsKey("gso")) {
            cmd.add("--max-gso-dgrams=" + o.get("gso").strip());
        }
        if (o.containsKey("max-udp-payload")) {
            cmd.add("--max-udp-payload-size=" + o.get("max-udp-payload").strip());
        }
        if (s.qlogDir() != null) {
            cmd.add("--qlog-dir=" + s.qlogDir());
        }
        cmd.addAll(List.of(s.address(), Integer.toString(s.port()), s.privateKey().toString(), s.certificate().toString()));
        return Launch.of(cmd, keyLogEnv(s.keyLog()), new Readiness.UdpBound(s.port()));
    }

    @Override
    public Launch client(ClientSetup c, PacelabLauncher pacelab) throws IOException {
        Path downloads = c.workDir().resolve(DOWNLOADS);
        Files.createDirectories(downloads);
        List<String> cmd = new ArrayList<>(List.of(program(Role.CLIENT), "-q", "--exit-on-all-streams-close",
                "--download=" + downloads, "--max-data=1G", "--max-stream-data-bidi-local=1G",
                "--timeout=" + Math.max(1, c.timeoutNs() / 1_000_000) + "ms", "-n", Integer.toString(c.paths().size())));
        Map<String, String> o = c.options();
        if (o.containsKey("cc")) {
            cmd.add("--cc=" + ccName(o.get("cc")));
        }
        if (o.containsKey("max-udp-payload")) {
            cmd.add("--max-udp-payload-size=" + o.get("max-udp-payload").strip());
        }
        cmd.add(c.host());
        cmd.add(Integer.toString(c.port()));
        for (String p : c.paths()) {
            cmd.add(c.url(p));
        }
        return Launch.of(cmd, keyLogEnv(c.keyLog()), null);
    }

    @Override
    public ClientOutcome clientOutcome(ClientSetup c, Path stdout) throws IOException {
        Path downloads = c.workDir().resolve(DOWNLOADS);
        long bytes = 0;
        if (Files.isDirectory(downloads)) {
            try (Stream<Path> files = Files.list(downloads)) {
                for (Path f : files.toList()) {
                    bytes += Files.size(f);
                    Files.delete(f);
                }
            }
        }
        return new ClientOutcome(bytes, null);
    }

    static Map<String, String> keyLogEnv(Path keyLog) {
        return keyLog == null ? Map.of() : Map.of("SSLKEYLOGFILE", keyLog.toString());
    }
}
