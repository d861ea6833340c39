package org.pacelab.lab.peer;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.pacelab.lab.host.Host;
import org.pacelab.lab.scenario.Mode;

/**
 * Kwik (with Flupke for HTTP/3) as the peer programs {@code pacelab peer kwik-server} and {@code pacelab peer
 * kwik-client}: NewReno only, unpaced; its server writes neither qlog nor key log, so the client writes the key log.
 */
public final class KwikPeer implements Peer {
    public static final String NAME = "kwik";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String summary() {
        return "Kwik with Flupke HTTP/3 (pacelab peer kwik-server/-client): NewReno only, does not pace, no server qlog";
    }

    @Override
    public List<Protocol> protocols() {
        return List.of(Protocol.H3);
    }

    @Override
    public List<PeerOption> options(Role role) {
        return List.of();
    }

    @Override
    public boolean writesKeyLog(Role role) {
        return role == Role.CLIENT;
    }

    @Override
    public String caveat() {
        return "Kwik uses NewReno without pacing, and its server writes no qlog (no cwnd timeline, no pacing precision)";
    }

    @Override
    public Availability availability(Role role, Host host, PacelabLauncher pacelab) {
        return pacelab.availability(subcommand(role));
    }

    @Override
    public String version(Role role, Host host, PacelabLauncher pacelab) {
        return "kwik " + ClasspathVersions.resource("tech/kwik/core/version.properties");
    }

    private static String subcommand(Role role) {
        return role == Role.SERVER ? "peer kwik-server" : "peer kwik-client";
    }

    @Override
    public Launch server(ServerSetup s, PacelabLauncher pacelab) {
        List<String> args = PacelabCommandLines.server(subcommand(Role.SERVER), s);
        return Launch.of(pacelab.command(args), Map.of(), new Readiness.UdpBound(s.port()));
    }

    @Override
    public Launch client(ClientSetup c, PacelabLauncher pacelab) {
        List<String> args = PacelabCommandLines.client(subcommand(Role.CLIENT), c);
        PacelabCommandLines.logs(args, null, c.keyLog());
        PacelabCommandLines.urls(args, c);
        return Launch.of(pacelab.command(args), Map.of(), null);
    }

    @Override
    public ClientOutcome clientOutcome(ClientSetup c, Path stdout) throws IOException {
        return PacelabPeer.clientLogOutcome(c);
    }
}
