package org.pacelab.lab.interop;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.pacelab.lab.peer.Launch;
import org.pacelab.lab.peer.PacelabLauncher;
import org.pacelab.lab.peer.Readiness;
import org.pacelab.lab.peer.Role;

/**
 * quiche (through Netty) and Kwik through the peer programs pacelab ships ({@code pacelab peer quiche-server|client},
 * {@code kwik-server|client}). Those programs serve and download files over h3 or hq-interop and write key logs (and
 * quiche in both roles a qlog per connection, Kwik's client its own log: {@link #KWIK_CLIENT_LOG}); they have no
 * options for the runner's other test names, which are therefore unsupported with the reason.
 */
final class NettyKwikEndpoint extends PeerBackedEndpoint {
    private static final Set<String> BASIC = Set.of("handshake", "transfer", "http3", "multiconnect");
    /** Kwik's client log in the run's directory ({@code pacelab peer kwik-client --log}), every connection of the run. */
    static final String KWIK_CLIENT_LOG = "kwik-client.log";

    private final String program;
    private final String why;
    private final boolean connectionPerUrl;

    /**
     * @param peer    the peer's name ({@code quiche} or {@code kwik})
     * @param program the command's prefix ({@code quiche} or {@code kwik}: {@code pacelab peer quiche-server})
     * @param why     what limits it, for the reason of an unsupported test
     * @param connectionPerUrl whether multiconnect runs as one process with {@code --connection-per-url}
     */
    NettyKwikEndpoint(String peer, String program, String why, boolean connectionPerUrl) {
        super(peer);
        this.program = program;
        this.why = why;
        this.connectionPerUrl = connectionPerUrl;
    }

    /**
     * quiche keeps a process per URL for multiconnect: in one run of handshakecorruption (2026-12-03) one of its
     * connections, once its download was done, sent ~120,000 Handshake packets a second from an event loop that did not
     * stop when the connection ended; in one process that went on beside the later connections until the process ended
     * (195 s, 23 million datagrams, a 214 MB tap the check ran out of memory on), where a process per URL ends it.
     */
    static NettyKwikEndpoint quiche() {
        return new NettyKwikEndpoint("quiche", "quiche", "pacelab's quiche peer (Netty's QUIC codec) has no option for it", false);
    }

    static NettyKwikEndpoint kwik() {
        return new NettyKwikEndpoint("kwik", "kwik", "pacelab's Kwik peer has no option for it", true);
    }

    @Override
    public Set<String> protocols(Role role) {
        return Set.of("hq-interop", "h3");
    }

    @Override
    public String unsupported(Role role, String testname) {
        return BASIC.contains(testname) ? null : "test '" + testname + "': " + why;
    }

    @Override
    public Launch server(EndpointSetup s, PacelabLauncher pacelab) {
        List<String> args = new ArrayList<>(List.of("peer", program + "-server", "--listen", address(s.listen()), "--root",
                s.www().toString(), "--cert", s.certificate().toString(), "--key", s.privateKey().toString()));
        if (s.keyLog() != null && writesKeyLog(Role.SERVER)) {
            args.addAll(List.of("--keylog", s.keyLog().toString()));
        }
        if (s.qlogDir() != null && program.equals("quiche")) {
            args.addAll(List.of("--qlog-dir", s.qlogDir().toString()));
        }
        return Launch.of(pacelab.command(args), Map.of(), new Readiness.UdpBound(s.listen().getPort()));
    }

    /**
     * Kwik: one process for multiconnect too, the client opening a new connection per URL itself
     * ({@code --connection-per-url}), as the runner's clients do, instead of a JVM start per connection, 50 of which did
     * not fit in handshakeloss's 300 s on a loaded host. Each connection has the case's timeout, as each process had.
     */
    @Override
    public List<Launch> client(EndpointSetup s, PacelabLauncher pacelab) {
        if (s.connectionPerUrl() && connectionPerUrl) {
            return List.of(step(s, s.urls(), true, pacelab));
        }
        List<Launch> steps = new ArrayList<>();
        for (List<String> urls : s.urlsPerProcess()) {
            steps.add(step(s, urls, false, pacelab));
        }
        return steps;
    }

    private Launch step(EndpointSetup s, List<String> urls, boolean connectionPerUrl, PacelabLauncher pacelab) {
        List<String> args = new ArrayList<>(List.of("peer", program + "-client", "--alpn", s.alpn(), "-k", "-o", s.downloads().toString(),
                "--timeout", Math.max(5, s.timeoutNs() / 1_000_000_000L) + "s"));
        if (connectionPerUrl) {
            args.add("--connection-per-url");
        }
        if (s.keyLog() != null) {
            args.addAll(List.of("--keylog", s.keyLog().toString()));
        }
        if (s.qlogDir() != null && program.equals("quiche")) {
            args.addAll(List.of("--qlog-dir", s.qlogDir().toString())); // Netty names each connection's file
        }
        if (program.equals("kwik")) {
            // Kwik writes no qlog: its own log (packets, recovery, debug) beside the client's output, for diagnosis only
            args.addAll(List.of("--log", s.workDir().resolve(KWIK_CLIENT_LOG).toString()));
        }
        args.addAll(urls);
        return Launch.of(pacelab.command(args), Map.of(), null);
    }
}
