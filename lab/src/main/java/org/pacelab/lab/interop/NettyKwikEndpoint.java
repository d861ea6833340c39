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
 * quiche in both roles a qlog per connection, Kwik's client its own log: {@link #KWIK_CLIENT_LOG}). The runner's test
 * names map to the programs' options on the libraries' own API: retry (quiche's server {@code --retry}: Netty's
 * token handler; Kwik's {@code --retry}: {@code retryRequired}), resumption and zerortt (quiche's server
 * {@code --early-data}, its client both connections in one process with {@code --resume}/{@code --zero-rtt}, because
 * BoringSSL's session stays in Netty's in-memory cache; Kwik's client two processes sharing the ticket file
 * {@link #KWIK_TICKET}, the second in 0-RTT for zerortt; Kwik's server issues tickets and takes 0-RTT as it is),
 * chacha20 (Kwik's client {@code --cipher-suites}; both servers accept the suite the client offers), keyupdate (Kwik's
 * client {@code --key-update}) and v2 (Kwik {@code --v2}, {@code --negotiate-v2}). What a library lacks is unsupported
 * with the reason in its own API or source.
 */
final class NettyKwikEndpoint extends PeerBackedEndpoint {
    /** Kwik's client log in the run's directory ({@code pacelab peer kwik-client --log}), every connection of the run. */
    static final String KWIK_CLIENT_LOG = "kwik-client.log";
    /** The session ticket Kwik's two client processes of resumption and zerortt share, in the cell's client directory. */
    static final String KWIK_TICKET = "kwik-session.ticket";
    static final String CHACHA20 = "TLS_CHACHA20_POLY1305_SHA256";

    private static final Set<String> QUICHE_SERVER = Set.of("handshake", "transfer", "http3", "multiconnect", "retry",
            "resumption", "zerortt", "chacha20");
    private static final Set<String> QUICHE_CLIENT = Set.of("handshake", "transfer", "http3", "multiconnect", "retry",
            "resumption", "zerortt");
    private static final Set<String> KWIK_SERVER = Set.of("handshake", "transfer", "http3", "multiconnect", "retry",
            "resumption", "zerortt", "chacha20", "v2");
    private static final Set<String> KWIK_CLIENT = Set.of("handshake", "transfer", "http3", "multiconnect", "retry",
            "resumption", "zerortt", "chacha20", "keyupdate", "v2");

    static final String QUICHE_NO_CHACHA20 = "quiche's TLS is BoringSSL, whose TLS 1.3 cipher suites cannot be chosen "
            + "(SSL_CTX_set_cipher_list configures TLS 1.2 and below only), and Netty 4.2.18's QuicSslContextBuilder has no "
            + "cipher option, so quiche's client always offers AES-128-GCM, AES-256-GCM and ChaCha20 and cannot offer "
            + "ChaCha20 alone";
    static final String QUICHE_NO_KEY_UPDATE = "quiche 0.29.3 cannot be told to initiate a key update: neither its C API "
            + "(quiche/include/quiche.h) nor Netty 4.2.18's binding of it (io.netty.handler.codec.quic.Quiche) has a "
            + "function for one; quiche only follows the peer's";
    static final String QUICHE_NO_V2 = "quiche 0.29.3 speaks only QUIC v1: quiche_version_is_supported(0x6b3343cf) is "
            + "false (asked through Netty 4.2.18's binding) and QUICHE_PROTOCOL_VERSION is 0x00000001 (quiche.h)";
    static final String QUICHE_NO_ECN = "quiche 0.29.3 is given no ECN marks: quiche_conn_recv's quiche_recv_info has "
            + "only the from/to addresses (quiche.h), so its ACK frames carry no ECN counts, and Netty 4.2.18's codec "
            + "marks no datagram it sends ECT";
    static final String QUICHE_NO_PREFERRED_ADDRESS = "quiche's server cannot offer a preferred address: Netty 4.2.18's "
            + "QuicCodecBuilder has no setting for it and quiche 0.29.3's configuration has none (no quiche_config_* "
            + "function for preferred_address in quiche.h)";
    static final String KWIK_NO_ECN = "Kwik 0.10.9 sends and receives through java.net.DatagramSocket and never sets a "
            + "traffic class (no setTrafficClass in tech.kwik.core), so it marks nothing ECT, and DatagramSocket does not "
            + "expose the ECN bits of received datagrams, so its ACK frames carry no ECN counts";
    static final String KWIK_NO_PREFERRED_ADDRESS = "Kwik 0.10.9's server cannot offer a preferred address: "
            + "ServerConnectionConfig has no setting for it and the server never sets the preferred_address transport "
            + "parameter (TransportParameters.setPreferredAddress is called only when parsing a peer's)";

    static final String KWIK_NO_H3_ZERO_RTT = "pacelab's Kwik client sends 0-RTT over hq-interop only: Kwik 0.10.9 takes "
            + "early data as raw stream bytes when it connects (QuicClientConnection.connect(List<StreamEarlyData>)), and "
            + "Flupke 0.9.4's HTTP/3 client (Http3SingleConnectionClient) opens its control and request streams only on a "
            + "connected connection; the program does not encode HTTP/3 itself for early data";

    private final String program;
    private final boolean connectionPerUrl;

    /**
     * @param peer    the peer's name ({@code quiche} or {@code kwik})
     * @param program the command's prefix ({@code quiche} or {@code kwik}: {@code pacelab peer quiche-server})
     * @param connectionPerUrl whether multiconnect runs as one process with {@code --connection-per-url}
     */
    NettyKwikEndpoint(String peer, String program, boolean connectionPerUrl) {
        super(peer);
        this.program = program;
        this.connectionPerUrl = connectionPerUrl;
    }

    private boolean isKwik() {
        return program.equals("kwik");
    }

    /**
     * quiche keeps a process per URL for multiconnect: in one run of handshakecorruption (2026-12-03) one of its
     * connections, once its download was done, sent ~120,000 Handshake packets a second from an event loop that did not
     * stop when the connection ended; in one process that went on beside the later connections until the process ended
     * (195 s, 23 million datagrams, a 214 MB tap the check ran out of memory on), where a process per URL ends it.
     */
    static NettyKwikEndpoint quiche() {
        return new NettyKwikEndpoint("quiche", "quiche", false);
    }

    static NettyKwikEndpoint kwik() {
        return new NettyKwikEndpoint("kwik", "kwik", true);
    }

    @Override
    public Set<String> protocols(Role role) {
        return Set.of("hq-interop", "h3");
    }

    @Override
    public String unsupported(Role role, String testname) {
        Set<String> known = isKwik() ? (role == Role.SERVER ? KWIK_SERVER : KWIK_CLIENT)
                : (role == Role.SERVER ? QUICHE_SERVER : QUICHE_CLIENT);
        if (known.contains(testname)) {
            return null;
        }
        String reason = switch (testname) {
            case "ecn" -> isKwik() ? KWIK_NO_ECN : QUICHE_NO_ECN;
            case "connectionmigration" -> isKwik() ? KWIK_NO_PREFERRED_ADDRESS : QUICHE_NO_PREFERRED_ADDRESS;
            case "v2" -> isKwik() ? null : QUICHE_NO_V2;
            case "keyupdate" -> isKwik() ? null : QUICHE_NO_KEY_UPDATE;
            case "chacha20" -> isKwik() ? null : QUICHE_NO_CHACHA20;
            default -> null;
        };
        return "test '" + testname + "': " + (reason != null ? reason
                : isKwik() ? "pacelab's Kwik peer has no option for it" : "pacelab's quiche peer (Netty's QUIC codec) has no option for it");
    }

    @Override
    public String unsupported(Role role, String testname, String alpn) {
        return isKwik() && role == Role.CLIENT && testname.equals("zerortt") && !"hq-interop".equals(alpn)
                ? "test '" + testname + "' over " + alpn + ": " + KWIK_NO_H3_ZERO_RTT : null;
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
        switch (s.testname()) {
            case "retry" -> args.add("--retry");
            case "zerortt" -> {
                if (!isKwik()) {
                    args.add("--early-data"); // Kwik's server accepts 0-RTT as it is
                }
            }
            case "v2" -> args.add("--v2"); // Kwik only (quiche's is unsupported)
            default -> { } // resumption: both issue tickets; chacha20: both accept the suite the client offers
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
            return List.of(step(s, s.urls(), true, List.of(), pacelab));
        }
        boolean twoConnections = s.testname().equals("resumption") || s.testname().equals("zerortt");
        if (twoConnections && !isKwik()) {
            // quiche: both connections in one process, the second resuming from Netty's in-memory session cache
            return List.of(step(s, s.urls(), false, List.of(s.testname().equals("zerortt") ? "--zero-rtt" : "--resume"), pacelab));
        }
        List<Launch> steps = new ArrayList<>();
        List<List<String>> groups = s.urlsPerProcess();
        for (int i = 0; i < groups.size(); i++) {
            List<String> extra = new ArrayList<>();
            switch (s.testname()) {
                case "chacha20" -> extra.addAll(List.of("--cipher-suites", CHACHA20)); // Kwik only
                case "keyupdate" -> extra.add("--key-update");                          // Kwik only
                case "v2" -> extra.add("--negotiate-v2");                               // Kwik only
                case "resumption", "zerortt" -> {                                       // Kwik: two processes, one ticket
                    extra.addAll(List.of("--session-ticket", s.workDir().resolve(KWIK_TICKET).toString()));
                    if (s.testname().equals("zerortt") && i > 0) {
                        extra.add("--zero-rtt");
                    }
                }
                default -> { }
            }
            steps.add(step(s, groups.get(i), false, extra, pacelab));
        }
        return steps;
    }

    private Launch step(EndpointSetup s, List<String> urls, boolean connectionPerUrl, List<String> extra, PacelabLauncher pacelab) {
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
        args.addAll(extra);
        args.addAll(urls);
        return Launch.of(pacelab.command(args), Map.of(), null);
    }
}
