package org.pacelab.lab.interop;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.pacelab.lab.peer.AioquicPeer;
import org.pacelab.lab.peer.Launch;
import org.pacelab.lab.peer.PacelabLauncher;
import org.pacelab.lab.peer.QuicGoPeer;
import org.pacelab.lab.peer.Readiness;
import org.pacelab.lab.peer.Role;

/**
 * aioquic and quic-go through the server and client programs pacelab builds on their public APIs ({@code pacelab peers
 * install aioquic|quic-go}): they serve and download files over hq-interop (and h3 where the peer has it), write key
 * logs and qlogs, and have no options for the runner's other test names, which are therefore unsupported with the
 * reason. The peers' own interop programs cannot run here: aioquic's {@code examples/http3_server.py} and
 * {@code http3_client.py} import its HTTP/3 layer, which needs pylsqpack (not available offline), and quic-go's
 * {@code interop/server} and {@code interop/client} (Debian's 0.29) hard-code the runner's container paths
 * ({@code /www}, {@code /certs}, {@code /downloads}, {@code /logs}, port 443).
 */
final class ProgramEndpoint extends PeerBackedEndpoint {
    private static final Set<String> BASIC = Set.of("handshake", "transfer", "multiconnect");

    private final Set<String> supported;
    private final Set<String> protocols;
    private final String why;

    private ProgramEndpoint(String peer, Set<String> supported, Set<String> protocols, String why) {
        super(peer);
        this.supported = supported;
        this.protocols = protocols;
        this.why = why;
    }

    static ProgramEndpoint aioquic() {
        return new ProgramEndpoint(AioquicPeer.NAME, BASIC, Set.of("hq-interop"),
                "pacelab's aioquic programs have no option for it (and no HTTP/3: pylsqpack is not available offline)");
    }

    static ProgramEndpoint quicGo() {
        Set<String> s = new java.util.HashSet<>(BASIC);
        s.add("http3");
        return new ProgramEndpoint(QuicGoPeer.NAME, Set.copyOf(s), Set.of("hq-interop", "h3"),
                "pacelab's quic-go programs have no option for it");
    }

    @Override
    public Set<String> protocols(Role role) {
        return protocols;
    }

    @Override
    public String unsupported(Role role, String testname) {
        return supported.contains(testname) ? null : "test '" + testname + "': " + why;
    }

    private String program(Role role) throws IOException {
        var p = peer();
        return (p instanceof AioquicPeer a ? a.executable(role) : ((QuicGoPeer) p).executable(role)).toString();
    }

    @Override
    public Launch server(EndpointSetup s, PacelabLauncher pacelab) throws IOException {
        List<String> args = new ArrayList<>(List.of(program(Role.SERVER), "--listen", address(s.listen()), "--root", s.www().toString(),
                "--cert", s.certificate().toString(), "--key", s.privateKey().toString(), "--alpn", s.alpn()));
        if (s.keyLog() != null) {
            args.addAll(List.of("--keylog", s.keyLog().toString()));
        }
        if (s.qlogDir() != null) {
            args.addAll(List.of("--qlog-dir", s.qlogDir().toString()));
        }
        return Launch.of(args, java.util.Map.of(), new Readiness.UdpBound(s.listen().getPort()));
    }

    @Override
    public List<Launch> client(EndpointSetup s, PacelabLauncher pacelab) throws IOException {
        List<Launch> steps = new ArrayList<>();
        for (List<String> urls : s.urlsPerProcess()) {
            steps.add(step(s, urls));
        }
        return steps;
    }

    private Launch step(EndpointSetup s, List<String> urls) throws IOException {
        List<String> args = new ArrayList<>(List.of(program(Role.CLIENT), "--insecure", "--alpn", s.alpn(), "--output",
                s.downloads().toString(), "--timeout", Math.max(5, s.timeoutNs() / 1_000_000_000L) + "s"));
        if (s.keyLog() != null) {
            args.addAll(List.of("--keylog", s.keyLog().toString()));
        }
        if (s.qlogDir() != null) {
            args.addAll(List.of("--qlog-dir", s.qlogDir().toString())); // one file per connection, by its original DCID
        }
        if (peer() instanceof QuicGoPeer) {
            // quic-go gives up a handshake idle for 5 s; a JVM server on this loaded host may take longer to answer
            args.addAll(List.of("--handshake-timeout", Math.max(5, s.timeoutNs() / 1_000_000_000L) + "s"));
        }
        args.addAll(urls);
        return Launch.of(args, java.util.Map.of(), null);
    }
}
