package org.pacelab.lab.peer;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.pacelab.peers.build.PeerCache;
import org.pacelab.peers.build.QuicGoBuild;

/**
 * quic-go 0.29 (Debian's) through a small server and client written in this project on its public API
 * ({@code quic-go-server}, {@code quic-go-client}), built by {@code pacelab peers install quic-go} into the peer cache.
 * HTTP/3 (or hq-interop); CUBIC, the only controller of this version, with its pacer; no GSO. Both write key logs
 * and qlogs (times to the nanosecond, relative to a reference time); the client writes pacelab's client log.
 */
public final class QuicGoPeer extends BuiltPeer {
    public static final String NAME = QuicGoBuild.PEER;

    private static final List<PeerOption> OPTIONS = List.of(new PeerOption("cc", "cubic (the only one quic-go 0.29 has)",
            v -> v.strip().toLowerCase(Locale.ROOT).equals("cubic") ? null
                    : "'" + v + "' is not a congestion controller of quic-go 0.29; valid values: cubic"));

    public QuicGoPeer(PeerCache cache) {
        super(cache, new QuicGoBuild(), OPTIONS);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String summary() {
        return "quic-go 0.29 (Debian) through pacelab's quic-go-server/-client, built by 'pacelab peers install quic-go': "
                + "CUBIC only, paces, no GSO";
    }

    @Override
    public List<Protocol> protocols() {
        return List.of(Protocol.H3, Protocol.HQ_INTEROP);
    }

    @Override
    public String caveat() {
        return "quic-go 0.29 has CUBIC only and no GSO; it logs no intended send time, so its precision is measured against "
                + "its qlog's packet_sent times (the send path's lateness, not its pacer's)";
    }

    @Override
    String program(Role role) {
        return role == Role.SERVER ? QuicGoBuild.SERVER : QuicGoBuild.CLIENT;
    }

    @Override
    public Launch server(ServerSetup s, PacelabLauncher pacelab) throws IOException {
        List<String> args = PacelabCommandLines.server(List.of(programPath(Role.SERVER).toString()), s);
        args.addAll(List.of("--alpn", s.protocol().alpn()));
        PacelabCommandLines.logs(args, s.qlogDir(), s.keyLog());
        PacelabCommandLines.options(args, s.options());
        return Launch.of(args, Map.of(), new Readiness.UdpBound(s.port()));
    }

    @Override
    public Launch client(ClientSetup c, PacelabLauncher pacelab) throws IOException {
        List<String> args = PacelabCommandLines.client(List.of(programPath(Role.CLIENT).toString()), c);
        args.addAll(List.of("--alpn", c.protocol().alpn()));
        PacelabCommandLines.logs(args, null, c.keyLog());
        PacelabCommandLines.options(args, c.options());
        PacelabCommandLines.urls(args, c);
        return Launch.of(args, Map.of(), null);
    }

    @Override
    public ClientOutcome clientOutcome(ClientSetup c, Path stdout) throws IOException {
        return PacelabPeer.clientLogOutcome(c);
    }
}
