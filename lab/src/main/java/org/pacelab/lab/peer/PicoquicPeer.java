package org.pacelab.lab.peer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.pacelab.peers.build.PeerCache;
import org.pacelab.peers.build.PicoquicBuild;

/**
 * picoquic through its {@code picoquicdemo} program (server and client), built by pacelab from pinned sources into
 * the peer cache ({@code pacelab peers install picoquic}). Its congestion controllers by their own names; it paces
 * (a leaky bucket at the controller's rate) and sends with UDP GSO unless told not to ({@code gso: off}). Both roles
 * write NSS key logs ({@code -8} with SSLKEYLOGFILE); the server writes one qlog per connection (microsecond times).
 */
public final class PicoquicPeer extends BuiltPeer {
    public static final String NAME = PicoquicBuild.PEER;
    static final String DOWNLOADS = "downloads";
    /** picoquicdemo's names (-G), in its own order. */
    static final List<String> CONTROLLERS = List.of("newreno", "cubic", "dcubic", "fast", "bbr", "prague", "bbr1", "c4");
    private static final List<String> CIPHERS = List.of("aes128", "aes256", "chacha20");

    private static final List<PeerOption> OPTIONS = List.of(
            new PeerOption("cc", String.join(", ", CONTROLLERS) + " (reno = newreno)", v -> ccName(v) != null ? null
                    : "'" + v + "' is not a congestion controller of picoquic" + org.pacelab.lab.scenario.Suggestions.didYouMean(v, CONTROLLERS)
                    + "; valid values: " + String.join(", ", CONTROLLERS)),
            new PeerOption("gso", "on, off, or a number: 1 = off, more = on (picoquic sizes its GSO batches itself)",
                    v -> gso(v) != null ? null : "'" + v + "' is not valid; valid values: on, off, or a number of datagrams (1 = off)"),
            new PeerOption("ciphers", "one of aes128, aes256, chacha20", v -> CIPHERS.contains(v.strip().toLowerCase(Locale.ROOT)) ? null
                    : "'" + v + "' is not a cipher suite picoquic can be limited to; valid values (one): " + String.join(", ", CIPHERS)));

    public PicoquicPeer(PeerCache cache) {
        super(cache, new PicoquicBuild(), OPTIONS);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String summary() {
        return "picoquic (picoquicdemo, built from pinned sources by 'pacelab peers install picoquic'): newreno, cubic, bbr, "
                + "bbr1, ...; paces; GSO on unless gso: off";
    }

    @Override
    public List<Protocol> protocols() {
        return List.of(Protocol.H3, Protocol.HQ_INTEROP);
    }

    @Override
    public String caveat() {
        return "picoquic logs no intended send time: its precision is measured against its qlog's packet_sent times "
                + "(microseconds), i.e. the send path's lateness, not its pacer's";
    }

    static String ccName(String v) {
        String n = v.strip().toLowerCase(Locale.ROOT);
        if (n.equals("reno")) {
            return "newreno";
        }
        return CONTROLLERS.contains(n) ? n : null;
    }

    /** True for GSO on, false for off, null when not valid. */
    static Boolean gso(String v) {
        String n = v.strip().toLowerCase(Locale.ROOT);
        return switch (n) {
            case "on", "yes", "true" -> true;
            case "off", "no", "false" -> false;
            default -> {
                try {
                    int k = Integer.parseInt(n);
                    yield k < 1 || k > 64 ? null : k > 1;
                } catch (NumberFormatException e) {
                    yield null;
                }
            }
        };
    }

    private static String cipherId(String v) {
        return switch (v.strip().toLowerCase(Locale.ROOT)) {
            case "aes128" -> "128";
            case "aes256" -> "256";
            default -> "20";
        };
    }

    /** picoquicdemo plays both roles. */
    @Override
    String program(Role role) {
        return PicoquicBuild.PROGRAM;
    }

    /** Options both roles take, as picoquicdemo's flags. */
    private static void options(List<String> cmd, Map<String, String> o) {
        if (o.containsKey("cc")) {
            cmd.addAll(List.of("-G", ccName(o.get("cc"))));
        }
        if (o.containsKey("gso") && !gso(o.get("gso"))) {
            cmd.add("-0");
        }
        if (o.containsKey("ciphers")) {
            cmd.addAll(List.of("-C", cipherId(o.get("ciphers"))));
        }
    }

    /**
     * picoquicdemo as a server on {@code port} (every address) serving the files in {@code root}, with its defaults
     * otherwise: the start of every command line that runs it (the runner's, the interop matrix's, the loopback
     * benchmark's); callers append their flags.
     */
    public List<String> serverCommand(int port, Path certificate, Path privateKey, Path root) throws IOException {
        return new ArrayList<>(List.of(programPath(Role.SERVER).toString(), "-p", Integer.toString(port), "-c", certificate.toString(),
                "-k", privateKey.toString(), "-w", root.toString()));
    }

    /**
     * picoquicdemo as a client that writes what it downloads into {@code downloads} (a path's file under its name
     * without the leading slash, other slashes turned into underscores) and proposes only {@code alpn}; {@code -n
     * localhost} because without an SNI its h3 requests fail. The start of every command line that runs it; callers
     * append their flags, then the host, the port and a {@link #scenario(List)}.
     */
    public List<String> clientCommand(Path downloads, String alpn) throws IOException {
        return new ArrayList<>(List.of(programPath(Role.CLIENT).toString(), "-n", "localhost", "-o", downloads.toString(), "-a", alpn));
    }

    @Override
    public Launch server(ServerSetup s, PacelabLauncher pacelab) throws IOException {
        List<String> cmd = serverCommand(s.port(), s.certificate(), s.privateKey(), s.documentRoot());
        options(cmd, s.options());
        if (s.qlogDir() != null) {
            cmd.addAll(List.of("-q", s.qlogDir().toString()));
        }
        if (s.keyLog() != null) {
            cmd.add("-8");
        }
        return Launch.of(cmd, Ngtcp2Peer.keyLogEnv(s.keyLog()), new Readiness.UdpBound(s.port()));
    }

    @Override
    public Launch client(ClientSetup c, PacelabLauncher pacelab) throws IOException {
        Path downloads = c.workDir().resolve(DOWNLOADS);
        Files.createDirectories(downloads);
        List<String> cmd = clientCommand(downloads, c.protocol().alpn());
        options(cmd, c.options());
        if (c.keyLog() != null) {
            cmd.add("-8");
        }
        cmd.addAll(List.of(c.host(), Integer.toString(c.port()), scenario(c.paths())));
        return Launch.of(cmd, Ngtcp2Peer.keyLogEnv(c.keyLog()), null);
    }

    /**
     * picoquicdemo's scenario: every path on its own stream (0, 4, 8, ...), each started at once ("-" as its previous
     * stream) rather than after the one before, so the downloads run concurrently.
     */
    public static String scenario(List<String> paths) {
        List<String> s = new ArrayList<>();
        for (int i = 0; i < paths.size(); i++) {
            s.add(4 * i + ":-:" + paths.get(i));
        }
        return String.join(";", s);
    }

    @Override
    public ClientOutcome clientOutcome(ClientSetup c, Path stdout) throws IOException {
        return new ClientOutcome(BuiltPeers.takeDownloads(c.workDir().resolve(DOWNLOADS)), null);
    }
}
