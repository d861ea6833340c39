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
 * install aioquic|quic-go}): they serve and download files over hq-interop (and h3 where the peer has it) and write key
 * logs and qlogs; the runner's test names map to the programs' options the way the peers' own interop programs map
 * them (aioquic's {@code examples/http3_server.py}, {@code http3_client.py} and {@code interop.py}; quic-go's
 * {@code interop/server} and {@code interop/client}): a Retry, session tickets kept between the two client processes of
 * resumption and zerortt (aioquic; quic-go's client makes both connections in one process, as its interop client does,
 * because Go's session state cannot be written to a file), only ChaCha20 offered, a key update (aioquic), QUIC v2 by
 * compatible version negotiation (aioquic). What a peer lacks is unsupported with the reason in the peer's source.
 * The peers' own interop programs cannot run here: aioquic's {@code examples/http3_server.py} and
 * {@code http3_client.py} import its HTTP/3 layer, which needs pylsqpack (not available offline), and quic-go's
 * {@code interop/server} and {@code interop/client} (Debian's 0.29) hard-code the runner's container paths
 * ({@code /www}, {@code /certs}, {@code /downloads}, {@code /logs}, port 443).
 */
final class ProgramEndpoint extends PeerBackedEndpoint {
    private static final String CHACHA20_AIOQUIC = "CHACHA20_POLY1305_SHA256";
    private static final String CHACHA20_GO = "TLS_CHACHA20_POLY1305_SHA256";
    /** The ticket file aioquic's two client processes of resumption and zerortt share, in the cell's client directory. */
    static final String AIOQUIC_TICKET = "aioquic-session.ticket";

    private static final Set<String> AIOQUIC_SERVER = Set.of("handshake", "transfer", "multiconnect", "retry", "resumption",
            "zerortt", "chacha20", "v2");
    private static final Set<String> AIOQUIC_CLIENT = Set.of("handshake", "transfer", "multiconnect", "retry", "resumption",
            "zerortt", "chacha20", "keyupdate", "v2");
    private static final Set<String> QUIC_GO_SERVER = Set.of("handshake", "transfer", "multiconnect", "http3", "retry",
            "resumption", "zerortt", "chacha20");
    private static final Set<String> QUIC_GO_CLIENT = Set.of("handshake", "transfer", "multiconnect", "http3", "retry",
            "resumption", "zerortt", "chacha20");

    private static final String AIOQUIC_NO_H3 = "pacelab's aioquic programs speak no HTTP/3: aioquic's HTTP/3 layer needs "
            + "pylsqpack, which is not available offline";
    private static final String AIOQUIC_NO_ECN = "aioquic 6d36838 neither marks the packets it sends ECT nor reads the ECN "
            + "bits of those it receives (its asyncio transport sets no IP_TOS/IP_RECVTOS; quic/connection.py only parses "
            + "the ACK_ECN frame)";
    private static final String QUIC_GO_NO_ECN = "quic-go 0.29 reports the ECN marks it receives (IP_RECVTOS, "
            + "sys_conn_oob.go) but marks none of the packets it sends ECT (it never sets IP_TOS on its socket)";
    private static final String QUIC_GO_NO_V2 = "quic-go 0.29 knows QUIC v2 only as the draft's version 0x709a50c4 "
            + "(internal/protocol/version.go, Version2), not RFC 9369's 0x6b3343cf, and has no compatible version "
            + "negotiation (no version_information transport parameter in internal/wire/transport_parameters.go)";
    private static final String QUIC_GO_NO_KEY_UPDATE = "quic-go 0.29 initiates a key update only after "
            + "handshake.KeyUpdateInterval packets (100,000: protocol.KeyUpdateInterval, internal/protocol/params.go), a "
            + "variable of an internal package (internal/handshake/updatable_aead.go) that a program outside quic-go cannot "
            + "set, so its client cannot be told to update keys in a 3 MB transfer";

    private final boolean aioquic;

    private ProgramEndpoint(String peer, boolean aioquic) {
        super(peer);
        this.aioquic = aioquic;
    }

    static ProgramEndpoint aioquic() {
        return new ProgramEndpoint(AioquicPeer.NAME, true);
    }

    static ProgramEndpoint quicGo() {
        return new ProgramEndpoint(QuicGoPeer.NAME, false);
    }

    @Override
    public Set<String> protocols(Role role) {
        return aioquic ? Set.of("hq-interop") : Set.of("hq-interop", "h3");
    }

    @Override
    public String unsupported(Role role, String testname) {
        Set<String> known = aioquic ? (role == Role.SERVER ? AIOQUIC_SERVER : AIOQUIC_CLIENT)
                : (role == Role.SERVER ? QUIC_GO_SERVER : QUIC_GO_CLIENT);
        if (known.contains(testname)) {
            return null;
        }
        String reason = switch (testname) {
            case "http3" -> aioquic ? AIOQUIC_NO_H3 : null;
            case "ecn" -> aioquic ? AIOQUIC_NO_ECN : QUIC_GO_NO_ECN;
            case "v2" -> aioquic ? null : QUIC_GO_NO_V2;
            case "keyupdate" -> aioquic ? null : QUIC_GO_NO_KEY_UPDATE;
            default -> null;
        };
        // the wording of the cases not mapped (connectionmigration) as before, so that their decided cells stand
        return "test '" + testname + "': " + (reason != null ? reason : aioquic
                ? "pacelab's aioquic programs have no option for it (and no HTTP/3: pylsqpack is not available offline)"
                : "pacelab's quic-go programs have no option for it");
    }

    private String program(Role role) throws IOException {
        var p = peer();
        return (p instanceof AioquicPeer a ? a.executable(role) : ((QuicGoPeer) p).executable(role)).toString();
    }

    @Override
    public Launch server(EndpointSetup s, PacelabLauncher pacelab) throws IOException {
        return Launch.of(serverCommand(program(Role.SERVER), s), java.util.Map.of(), new Readiness.UdpBound(s.listen().getPort()));
    }

    /** The server's command line: the program, the setup's files, and the options of its test name. */
    List<String> serverCommand(String program, EndpointSetup s) {
        List<String> args = new ArrayList<>(List.of(program, "--listen", address(s.listen()), "--root", s.www().toString(),
                "--cert", s.certificate().toString(), "--key", s.privateKey().toString(), "--alpn", s.alpn()));
        if (s.keyLog() != null) {
            args.addAll(List.of("--keylog", s.keyLog().toString()));
        }
        if (s.qlogDir() != null) {
            args.addAll(List.of("--qlog-dir", s.qlogDir().toString()));
        }
        switch (s.testname()) {
            case "retry" -> args.add("--retry");
            // aioquic's server issues and accepts session tickets (with 0-RTT) only with a ticket store; quic-go's always
            case "resumption", "zerortt" -> {
                if (aioquic) {
                    args.add("--session-tickets");
                }
            }
            // as quic-go's interop server; aioquic's has no server-side choice (its interop server offers all suites)
            case "chacha20" -> {
                if (!aioquic) {
                    args.addAll(List.of("--cipher-suites", CHACHA20_GO));
                }
            }
            default -> { }
        }
        return args;
    }

    @Override
    public List<Launch> client(EndpointSetup s, PacelabLauncher pacelab) throws IOException {
        String program = program(Role.CLIENT);
        return clientCommands(program, s).stream().map(c -> Launch.of(c, java.util.Map.of(), null)).toList();
    }

    /**
     * The client's command lines, run one after the other: one per {@link EndpointSetup#urlsPerProcess()} group for
     * aioquic (resumption and zerortt: both with the ticket file, the second in 0-RTT for zerortt), and for quic-go one
     * process that makes both connections of resumption and zerortt itself.
     */
    List<List<String>> clientCommands(String program, EndpointSetup s) {
        List<List<String>> out = new ArrayList<>();
        boolean twoConnections = s.testname().equals("resumption") || s.testname().equals("zerortt");
        if (!aioquic && twoConnections) {
            List<String> args = clientBase(program, s);
            args.add(s.testname().equals("zerortt") ? "--zero-rtt" : "--resume");
            args.addAll(s.urls());
            out.add(args);
            return out;
        }
        List<List<String>> groups = s.urlsPerProcess();
        for (int i = 0; i < groups.size(); i++) {
            List<String> args = clientBase(program, s);
            switch (s.testname()) {
                case "chacha20" -> args.addAll(List.of("--cipher-suites", aioquic ? CHACHA20_AIOQUIC : CHACHA20_GO));
                case "keyupdate" -> args.add("--key-update"); // aioquic only (quic-go's is unsupported)
                case "v2" -> args.add("--negotiate-v2");      // aioquic only
                case "resumption", "zerortt" -> {
                    args.addAll(List.of("--session-ticket", s.workDir().resolve(AIOQUIC_TICKET).toString()));
                    if (s.testname().equals("zerortt") && i > 0) {
                        args.add("--zero-rtt");
                    }
                }
                default -> { }
            }
            args.addAll(groups.get(i));
            out.add(args);
        }
        return out;
    }

    private List<String> clientBase(String program, EndpointSetup s) {
        List<String> args = new ArrayList<>(List.of(program, "--insecure", "--alpn", s.alpn(), "--output",
                s.downloads().toString(), "--timeout", Math.max(5, s.timeoutNs() / 1_000_000_000L) + "s"));
        if (s.keyLog() != null) {
            args.addAll(List.of("--keylog", s.keyLog().toString()));
        }
        if (s.qlogDir() != null) {
            args.addAll(List.of("--qlog-dir", s.qlogDir().toString())); // one file per connection, by its original DCID
        }
        if (!aioquic) {
            // quic-go gives up a handshake idle for 5 s; a JVM server on this loaded host may take longer to answer
            args.addAll(List.of("--handshake-timeout", Math.max(5, s.timeoutNs() / 1_000_000_000L) + "s"));
        }
        return args;
    }
}
