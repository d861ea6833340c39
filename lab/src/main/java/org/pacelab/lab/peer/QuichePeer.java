package org.pacelab.lab.peer;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.pacelab.lab.host.Host;
import org.pacelab.lab.scenario.Mode;

/**
 * quiche through Netty's native QUIC codec, as the peer programs {@code pacelab peer quiche-server} and
 * {@code pacelab peer quiche-client}. Netty ignores quiche's per-packet send times, so it does not pace.
 */
public final class QuichePeer implements Peer {
    public static final String NAME = "quiche";

    private static final List<PeerOption> OPTIONS = List.of(
            new PeerOption("cc", "cubic, newreno (= reno), reno, bbr", v ->
                    List.of("cubic", "newreno", "reno", "bbr").contains(v.strip().toLowerCase(Locale.ROOT)) ? null
                            : "'" + v + "' is not one of quiche's congestion controllers; valid values: cubic, newreno, reno, bbr"),
            PeerOption.oneOf("hystart", "on", "off"),
            PeerOption.integer("gso", 0, 64),
            PeerOption.integer("max-udp-payload", 1200, 65527));

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String summary() {
        return "quiche through Netty's native QUIC codec (pacelab peer quiche-server/-client): CUBIC, Reno, BBR; does not pace";
    }

    @Override
    public List<Protocol> protocols() {
        return List.of(Protocol.H3);
    }

    @Override
    public List<PeerOption> options(Role role) {
        return OPTIONS;
    }

    @Override
    public String caveat() {
        return "quiche through Netty does not pace: Netty ignores quiche's per-packet send times, so packets leave in bursts";
    }

    @Override
    public Availability availability(Role role, Host host, PacelabLauncher pacelab) {
        return pacelab.availability(subcommand(role));
    }

    @Override
    public String version(Role role, Host host, PacelabLauncher pacelab) {
        return "quiche via io.netty:netty-codec-native-quic " + ClasspathVersions.maven("io.netty", "netty-codec-native-quic");
    }

    private static String subcommand(Role role) {
        return role == Role.SERVER ? "peer quiche-server" : "peer quiche-client";
    }

    @Override
    public Launch server(ServerSetup s, PacelabLauncher pacelab) {
        List<String> args = PacelabCommandLines.server(subcommand(Role.SERVER), s);
        PacelabCommandLines.logs(args, s.qlogDir(), s.keyLog());
        PacelabCommandLines.options(args, s.options());
        return Launch.of(pacelab.command(args), Map.of(), new Readiness.UdpBound(s.port()));
    }

    @Override
    public Launch client(ClientSetup c, PacelabLauncher pacelab) {
        List<String> args = PacelabCommandLines.client(subcommand(Role.CLIENT), c);
        PacelabCommandLines.logs(args, null, c.keyLog());
        PacelabCommandLines.options(args, c.options());
        PacelabCommandLines.urls(args, c);
        return Launch.of(pacelab.command(args), Map.of(), null);
    }

    @Override
    public ClientOutcome clientOutcome(ClientSetup c, Path stdout) throws IOException {
        return PacelabPeer.clientLogOutcome(c);
    }
}
