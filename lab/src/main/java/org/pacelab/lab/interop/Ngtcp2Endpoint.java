package org.pacelab.lab.interop;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.pacelab.lab.peer.Launch;
import org.pacelab.lab.peer.PacelabLauncher;
import org.pacelab.lab.peer.Readiness;
import org.pacelab.lab.peer.Role;

/**
 * ngtcp2 through Debian's {@code gtlsserver}/{@code gtlsclient} (0.12.1, GnuTLS, HTTP/3 only), with the test names
 * mapped to their options the way ngtcp2's own interop image maps them ({@code interop/run_endpoint.sh}): Retry
 * with {@code -V}, session and transport-parameter files for resumption and 0-RTT, {@code --ciphers} for ChaCha20,
 * {@code --no-pmtud} for 0-RTT, {@code --key-update}, one process per URL for multiconnect.
 */
final class Ngtcp2Endpoint extends PeerBackedEndpoint {
    private static final Set<String> SERVER = Set.of("handshake", "transfer", "retry", "resumption", "zerortt", "http3",
            "multiconnect", "chacha20", "keyupdate", "ecn");
    private static final Set<String> CLIENT = Set.of("handshake", "transfer", "retry", "resumption", "zerortt", "http3",
            "multiconnect", "chacha20", "keyupdate", "ecn");

    Ngtcp2Endpoint() {
        super("ngtcp2");
    }

    @Override
    public Set<String> protocols(Role role) {
        return Set.of("h3");
    }

    @Override
    public String unsupported(Role role, String testname) {
        if (testname.equals("v2")) {
            return "Debian's ngtcp2 0.12.1 knows only the QUIC v2 draft (0x709a50c4), not RFC 9369's version 0x6b3343cf";
        }
        if (testname.equals("connectionmigration") && role == Role.SERVER) {
            return "gtlsserver binds the preferred address it advertises, and through the relay the advertised address must "
                    + "be the relay's, so it cannot offer one here";
        }
        Set<String> known = role == Role.SERVER ? SERVER : CLIENT;
        return known.contains(testname) ? null : "gtls" + role.word() + " has no option for the test '" + testname + "'";
    }

    @Override
    public Launch server(EndpointSetup s, PacelabLauncher pacelab) {
        List<String> cmd = new ArrayList<>(List.of("gtlsserver", "-q", "-d", s.www().toString(), "--max-udp-payload-size=1452"));
        switch (s.testname()) {
            case "retry" -> cmd.add("-V");
            case "multiconnect" -> cmd.addAll(List.of("--timeout=180s", "--handshake-timeout=180s"));
            default -> { }
        }
        cmd.addAll(List.of(s.listen().getAddress().getHostAddress(), Integer.toString(s.listen().getPort()),
                s.privateKey().toString(), s.certificate().toString()));
        return Launch.of(cmd, s.keyLogEnvironment(), new Readiness.UdpBound(s.listen().getPort()));
    }

    @Override
    public List<Launch> client(EndpointSetup s, PacelabLauncher pacelab) {
        List<String> base = new ArrayList<>(List.of("gtlsclient", "-q", "--exit-on-all-streams-close",
                "--download=" + s.downloads(), "--timeout=" + Math.max(5, s.timeoutNs() / 1_000_000_000L) + "s"));
        if (s.qlogDir() != null) {
            base.add("--qlog-dir=" + s.qlogDir()); // one file per connection (the directory exists)
        }
        switch (s.testname()) {
            case "chacha20" -> base.add("--ciphers=NORMAL:-VERS-ALL:+VERS-TLS1.3:-CIPHER-ALL:+CHACHA20-POLY1305");
            case "keyupdate" -> base.addAll(List.of("--delay-stream=10ms", "--key-update=1ms"));
            // as ngtcp2's interop image: a handshake under the runner's 30 % loss may take longer than the default 10 s
            case "multiconnect" -> base.add("--handshake-timeout=180s");
            case "resumption", "zerortt" -> {
                if (s.testname().equals("zerortt")) {
                    // as ngtcp2's interop image since c013efec: its PMTUD probes (PING and padding, up to 1444 bytes)
                    // are 1-RTT payload, which the runner's check allows only 5000 bytes of
                    base.add("--no-pmtud");
                }
                base.add("--session-file=" + s.workDir().resolve("session.txt"));
                base.add("--tp-file=" + s.workDir().resolve("tp.txt"));
                if (s.testname().equals("resumption")) {
                    base.add("--disable-early-data");
                }
            }
            default -> { }
        }
        return HostPortClient.processes(s, base, urls -> urls);
    }
}
