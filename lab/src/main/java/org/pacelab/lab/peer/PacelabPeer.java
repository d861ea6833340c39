package org.pacelab.lab.peer;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.pacelab.analysis.clientlog.ClientLog;
import org.pacelab.io.runtime.WaitStrategies;
import org.pacelab.lab.host.Host;
import org.pacelab.lab.scenario.Mode;
import org.pacelab.quic.cc.CongestionConfig;

/**
 * pacelab's own stack ({@code pacelab server} / {@code pacelab client}) with every congestion-control, pacer and
 * send-strategy switch. Scenario options are the command-line options without their dashes.
 */
public final class PacelabPeer implements Peer {
    public static final String NAME = "pacelab";

    private static final List<PeerOption> OPTIONS;

    static {
        List<PeerOption> o = new ArrayList<>();
        for (String flag : CongestionConfig.OPTION_NAMES) {
            String name = flag.substring(2);
            o.add(new PeerOption(name, "see 'pacelab server --help' (" + flag + ")", v -> {
                String p = congestionProblem(Map.of(flag, v));
                return p != null && p.startsWith(flag + ": ") ? p.substring(flag.length() + 2) : p;
            }));
        }
        o.add(PeerOption.oneOf("send", WaitStrategies.NAMES.toArray(String[]::new)));
        o.add(PeerOption.size("udp-buffer"));
        o.add(PeerOption.integer("max-udp-payload", 1200, 65527));
        o.add(new PeerOption("ciphers", "aes128, aes256, chacha20 (comma-separated)", v -> {
            for (String c : v.split(",")) {
                if (!List.of("aes128", "aes256", "chacha20").contains(c.strip())) {
                    return "'" + c.strip() + "' is not a cipher suite; valid: aes128, aes256, chacha20";
                }
            }
            return null;
        }));
        OPTIONS = List.copyOf(o);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String summary() {
        return "pacelab's own QUIC stack (pacelab server / client): every CC, pacer and send-strategy switch";
    }

    @Override
    public Protocol protocol() {
        return Protocol.H3;
    }

    @Override
    public Set<Role> roles() {
        return EnumSet.allOf(Role.class);
    }

    @Override
    public Set<Mode> modes() {
        return EnumSet.allOf(Mode.class);
    }

    @Override
    public List<PeerOption> options(Role role) {
        return OPTIONS;
    }

    @Override
    public String combinationProblem(Role role, Map<String, String> options) {
        Map<String, String> cc = new LinkedHashMap<>();
        options.forEach((k, v) -> {
            if (CongestionConfig.OPTION_NAMES.contains("--" + k)) {
                cc.put("--" + k, v);
            }
        });
        return congestionProblem(cc);
    }

    private static String congestionProblem(Map<String, String> options) {
        try {
            CongestionConfig.fromOptions(options);
            return null;
        } catch (IllegalArgumentException e) {
            String m = e.getMessage();
            return m.endsWith(".") ? m.substring(0, m.length() - 1) : m;
        }
    }

    @Override
    public Availability availability(Role role, Host host, PacelabLauncher pacelab) {
        return pacelab.has(role == Role.SERVER ? "server" : "client") ? Availability.USABLE
                : Availability.missing("this build has no 'pacelab " + role.word() + "'");
    }

    @Override
    public String version(Role role, Host host, PacelabLauncher pacelab) {
        String v = PacelabPeer.class.getPackage().getImplementationVersion();
        return "pacelab " + (v == null ? "development build" : v);
    }

    @Override
    public Launch server(ServerSetup s, PacelabLauncher pacelab) {
        List<String> args = PacelabCommandLines.server("server", s);
        args.addAll(List.of("--alpn", "h3"));
        if (s.qlogDir() != null) {
            args.addAll(List.of("--qlog-dir", s.qlogDir().toString()));
        }
        if (s.keyLog() != null) {
            args.addAll(List.of("--keylog", s.keyLog().toString()));
        }
        PacelabCommandLines.options(args, s.options());
        return Launch.of(pacelab.command(args), Map.of(), new Readiness.UdpBound(s.port()));
    }

    @Override
    public Launch client(ClientSetup c, PacelabLauncher pacelab) {
        List<String> args = PacelabCommandLines.client("client", c);
        args.addAll(List.of("--alpn", "h3"));
        if (c.keyLog() != null) {
            args.addAll(List.of("--keylog", c.keyLog().toString()));
        }
        PacelabCommandLines.options(args, c.options());
        PacelabCommandLines.urls(args, c);
        return Launch.of(pacelab.command(args), Map.of(), null);
    }

    @Override
    public ClientOutcome clientOutcome(ClientSetup c, Path stdout) throws IOException {
        return clientLogOutcome(c);
    }

    /** The outcome of a client that writes pacelab's JSON client log. */
    static ClientOutcome clientLogOutcome(ClientSetup c) throws IOException {
        Path log = c.workDir().resolve(PacelabCommandLines.CLIENT_LOG);
        ClientLog l = ClientLog.read(log);
        return new ClientOutcome(l.totalBytes(), log);
    }
}
