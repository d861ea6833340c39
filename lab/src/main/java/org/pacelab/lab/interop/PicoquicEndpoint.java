package org.pacelab.lab.interop;

import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.Set;

import org.pacelab.lab.peer.Launch;
import org.pacelab.lab.peer.PacelabLauncher;
import org.pacelab.lab.peer.PicoquicPeer;
import org.pacelab.lab.peer.Readiness;
import org.pacelab.lab.peer.Role;

/**
 * picoquic through its own demo program {@code picoquicdemo} (server and client, built by {@code pacelab peers install
 * picoquic}), the program picoquic's interop image runs, with the test names mapped to its flags: {@code -r} (Retry)
 * on the server; on the client {@code -C 20} (ChaCha20), {@code -u 32} (a key update after 32 packets), a ticket
 * file {@code -T} shared by two processes for resumption and 0-RTT, {@code -U 6b3343cf} (upgrade to QUIC v2), one
 * process per URL for multiconnect. Both roles write NSS key logs ({@code -8} with SSLKEYLOGFILE) and a qlog per
 * connection ({@code -q}: picoquicdemo writes JSON qlogs itself, {@code ICID.server.qlog} or {@code ICID.client.qlog}).
 */
final class PicoquicEndpoint extends PeerBackedEndpoint {
    /** A key update after this many packets received (picoquic's interop image uses 32). */
    static final int KEY_UPDATE_PACKETS = 32;
    private static final Set<String> SERVER = Set.of("handshake", "transfer", "retry", "resumption", "zerortt", "http3",
            "multiconnect", "chacha20", "keyupdate", "ecn", "v2");
    private static final Set<String> CLIENT = SERVER;

    PicoquicEndpoint() {
        super(PicoquicPeer.NAME);
    }

    @Override
    public Set<String> protocols(Role role) {
        return Set.of("hq-interop", "h3");
    }

    @Override
    public String unsupported(Role role, String testname) {
        if (role == Role.SERVER && testname.equals("connectionmigration")) {
            return "picoquicdemo serves one port (-p), so it cannot listen on the second address it would offer as its "
                    + "preferred address";
        }
        return (role == Role.SERVER ? SERVER : CLIENT).contains(testname) ? null
                : "picoquicdemo has no option for the test '" + testname + "' as " + role.word();
    }

    private PicoquicPeer picoquic() {
        return (PicoquicPeer) peer();
    }

    @Override
    public Launch server(EndpointSetup s, PacelabLauncher pacelab) throws IOException {
        List<String> cmd = picoquic().serverCommand(s.listen().getPort(), s.certificate(), s.privateKey(), s.www());
        if (s.testname().equals("retry")) {
            cmd.add("-r");
        }
        if (s.qlogDir() != null) {
            cmd.addAll(List.of("-q", s.qlogDir().toString()));
        }
        if (s.keyLog() != null) {
            cmd.add("-8");
        }
        return Launch.of(cmd, s.keyLogEnvironment(), new Readiness.UdpBound(s.listen().getPort()));
    }

    @Override
    public List<Launch> client(EndpointSetup s, PacelabLauncher pacelab) throws IOException {
        List<String> base = picoquic().clientCommand(s.downloads(), s.alpn());
        switch (s.testname()) {
            case "chacha20" -> base.addAll(List.of("-C", "20"));
            case "keyupdate" -> base.addAll(List.of("-u", Integer.toString(KEY_UPDATE_PACKETS)));
            case "v2" -> base.addAll(List.of("-U", "6b3343cf"));
            case "resumption", "zerortt" -> base.addAll(List.of("-T", s.workDir().resolve("picoquic-tickets.bin").toString(),
                    "-N", s.workDir().resolve("picoquic-tokens.bin").toString()));
            default -> { }
        }
        if (s.qlogDir() != null) {
            base.addAll(List.of("-q", s.qlogDir().toString()));
        }
        if (s.keyLog() != null) {
            base.add("-8");
        }
        return HostPortClient.processes(s, base, urls -> List.of(scenario(urls)));
    }

    /** picoquicdemo's scenario: every URL's path on its own stream, all started at once. */
    static String scenario(List<String> urls) {
        return PicoquicPeer.scenario(urls.stream().map(u -> URI.create(u).getPath()).toList());
    }
}
