package org.pacelab.lab.peer;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.pacelab.peers.build.AioquicBuild;
import org.pacelab.peers.build.PeerCache;

/**
 * aioquic through a small server and client written in this project on its public API ({@code pacelab_aioquic.py}),
 * built by {@code pacelab peers install aioquic} (its C extensions compiled for the machine's Python 3). It speaks
 * hq-interop (HTTP/0.9), and HTTP/3 where the build found pylsqpack; Reno (its default) or CUBIC with its pacer. Both
 * roles write key logs and qlogs (one file per connection, written when the connection ends); the client writes
 * pacelab's client log.
 */
public final class AioquicPeer extends BuiltPeer {
    public static final String NAME = AioquicBuild.PEER;

    private static final List<PeerOption> OPTIONS = List.of(new PeerOption("cc", "reno (= newreno, aioquic's default), cubic",
            v -> ccName(v) != null ? null : "'" + v + "' is not a congestion controller of aioquic; valid values: reno, newreno, cubic"));

    public AioquicPeer(PeerCache cache) {
        super(cache, new AioquicBuild(), OPTIONS);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String summary() {
        return "aioquic (Python) through pacelab's hq-interop server/client, built by 'pacelab peers install aioquic': "
                + "Reno or CUBIC, paces; HTTP/3 only where pylsqpack is importable";
    }

    /** hq-interop always; HTTP/3 first when the build found pylsqpack. */
    @Override
    public List<Protocol> protocols() {
        return AioquicBuild.protocols(cache.installed(NAME)).contains("h3") ? List.of(Protocol.H3, Protocol.HQ_INTEROP)
                : List.of(Protocol.HQ_INTEROP);
    }

    @Override
    public String caveat() {
        return "aioquic logs no intended send time: its precision is measured against its qlog's packet_sent times (the send "
                + "path's lateness, not its pacer's); without pylsqpack it speaks hq-interop (HTTP/0.9) only";
    }

    static String ccName(String v) {
        return switch (v.strip().toLowerCase(Locale.ROOT)) {
            case "reno", "newreno" -> "reno";
            case "cubic" -> "cubic";
            default -> null;
        };
    }

    @Override
    String program(Role role) {
        return role == Role.SERVER ? AioquicBuild.SERVER : AioquicBuild.CLIENT;
    }

    private static void options(List<String> args, Map<String, String> o, Path qlog, Path keyLog) {
        PacelabCommandLines.logs(args, qlog, keyLog);
        if (o.containsKey("cc")) {
            args.addAll(List.of("--cc", ccName(o.get("cc"))));
        }
    }

    @Override
    public Launch server(ServerSetup s, PacelabLauncher pacelab) throws IOException {
        List<String> args = PacelabCommandLines.server(List.of(programPath(Role.SERVER).toString()), s);
        args.addAll(List.of("--alpn", s.protocol().alpn()));
        options(args, s.options(), s.qlogDir(), s.keyLog());
        return Launch.of(args, Map.of(), new Readiness.UdpBound(s.port()));
    }

    @Override
    public Launch client(ClientSetup c, PacelabLauncher pacelab) throws IOException {
        List<String> args = PacelabCommandLines.client(List.of(programPath(Role.CLIENT).toString()), c);
        args.addAll(List.of("--alpn", c.protocol().alpn()));
        options(args, c.options(), null, c.keyLog());
        PacelabCommandLines.urls(args, c);
        return Launch.of(args, Map.of(), null);
    }

    @Override
    public ClientOutcome clientOutcome(ClientSetup c, Path stdout) throws IOException {
        return PacelabPeer.clientLogOutcome(c);
    }
}
