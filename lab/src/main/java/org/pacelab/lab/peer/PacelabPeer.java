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
import org.pacelab.io.send.SendConfig;
import org.pacelab.lab.host.Host;
import org.pacelab.lab.scenario.Mode;
import org.pacelab.net.spec.SpecException;
import org.pacelab.quic.cc.ControllerConfig;
import org.pacelab.quic.cc.SlowStartConfig;
import org.pacelab.quic.conn.CongestionConfig;
import org.pacelab.sim.SimOptions;

/**
 * pacelab's own stack ({@code pacelab server} / {@code pacelab client}) with every congestion-control, pacer and
 * send-strategy switch. Scenario options are the command-line options without their dashes.
 */
public final class PacelabPeer implements Peer {
    public static final String NAME = "pacelab";

    private static final List<PeerOption> OPTIONS;
    /** Send-path options that are switches on the command line ({@code --txtime}, not {@code --txtime on}). */
    private static final java.util.Set<String> SWITCHES = java.util.Set.of(SendConfig.GSO_SHRINK_ON_LOSS, SendConfig.TXTIME,
            SendConfig.PACED_GSO, SendConfig.GRO, SendConfig.REALTIME);

    static {
        List<PeerOption> o = new ArrayList<>();
        for (String flag : CongestionConfig.OPTION_NAMES) {
            String name = flag.substring(2);
            o.add(new PeerOption(name, "see 'pacelab server --help' (" + flag + ")", v -> {
                String p = congestionProblem(Map.of(flag, v));
                // a sentence about the option beside others ("--onset-delay is a parameter of --slow-start onset")
                // is the combination check's, which sees all of them
                return p != null && p.startsWith(flag + ": ") ? p.substring(flag.length() + 2) : null;
            }));
        }
        for (String flag : SendConfig.OPTION_NAMES) {
            String name = flag.substring(2);
            o.add(new PeerOption(name, "see 'pacelab server --help' (" + flag + ")", v -> {
                String p = sendProblem(Map.of(flag, v));
                // a sentence about another option ("--paced-gso needs --gso ...") is the combination check's
                return p != null && p.startsWith(flag + ": ") ? p.substring(flag.length() + 2) : null;
            }));
        }
        for (String name : SimulatedPacelab.SIM_ONLY) {
            if (!name.equals(SimulatedPacelab.FLOW_STARTS)) {
                o.add(new PeerOption(name, "a simulator host option (mode: sim), see the simulator's documentation", v -> null));
            }
        }
        o.add(new PeerOption(SimulatedPacelab.FLOW_STARTS, "when each flow's simulated client starts, one time per entry of "
                + "flows (e.g. 0s,2s,2s; mode: sim only)", v -> {
            try {
                SimOptions.flowStarts(v);
                return null;
            } catch (SpecException | IllegalArgumentException e) {
                // the option check names the option before the sentence
                String m = e.getMessage();
                String prefix = "--" + SimulatedPacelab.FLOW_STARTS + ": ";
                return m.startsWith(prefix) ? m.substring(prefix.length()) : m;
            }
        }));
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
        // a loopback transfer in the same JVM before the measured one (real time only)
        o.add(PeerOption.size(SimulatedPacelab.WARMUP));
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
    public List<Protocol> protocols() {
        return List.of(Protocol.H3, Protocol.HQ_INTEROP);
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

    /**
     * A server without {@code slow-start} (nor the older {@code hystart}) gets its controller's default rule named
     * ({@link SlowStartConfig#defaultRule}): CUBIC's default changed from hystart++ to onset-bdp-queue (issue 15), and
     * a campaign stored before must not take the new runs for its old configuration.
     */
    @Override
    public Map<String, String> withDefaultsNamed(Role role, Map<String, String> options) {
        String rule = SlowStartConfig.SLOW_START.substring(2);
        if (role != Role.SERVER || options.containsKey(rule) || options.containsKey(SlowStartConfig.HYSTART.substring(2))) {
            return options;
        }
        String used;
        try {
            used = ControllerConfig.fromOptions(options).slowStart().rule().optionValue();
        } catch (IllegalArgumentException e) {
            return options; // the option check has said so
        }
        Map<String, String> named = new LinkedHashMap<>(options);
        named.put(rule, used);
        return named;
    }

    @Override
    public String combinationProblem(Role role, Map<String, String> options) {
        Map<String, String> cc = new LinkedHashMap<>();
        Map<String, String> send = new LinkedHashMap<>();
        options.forEach((k, v) -> {
            if (CongestionConfig.OPTION_NAMES.contains("--" + k)) {
                cc.put("--" + k, v);
            }
            if (SendConfig.OPTION_NAMES.contains("--" + k)) {
                send.put("--" + k, v);
            }
        });
        String p = congestionProblem(cc);
        return p != null ? p : sendProblem(send);
    }

    /**
     * Combinations that cannot work in a mode on any host: SO_TXTIME in relay mode (the sender's egress is the host's
     * loopback device, where pacelab installs no qdisc) or without a server qdisc; the simulator's host-model
     * parameters outside sim mode; in sim mode, options the simulator does not model.
     */
    @Override
    public String modeProblem(Role role, Map<String, String> options, Mode mode, String qdisc) {
        if (mode == Mode.SIM) {
            return SimulatedPacelab.problem(role, options, qdisc);
        }
        if (options.containsKey(SimulatedPacelab.FLOW_STARTS)) {
            return SimulatedPacelab.FLOW_STARTS + " staggers the simulated clients' starts; it works in mode: sim only (the "
                    + mode.word() + " runner starts every flow's client at once); remove it or use mode: sim";
        }
        for (String k : options.keySet()) {
            if (SimulatedPacelab.SIM_ONLY.contains(k)) {
                return k + " is a parameter of the simulator's host model; it works in mode: sim only";
            }
        }
        SendConfig send = sendConfig(options);
        if (send != null && send.txtime()) {
            if (mode == Mode.RELAY || mode == Mode.DIRECT) {
                return "txtime needs an fq or etf qdisc on the sender's egress, and " + mode.word() + " mode sends over the host's loopback "
                        + "device, where pacelab installs none; use mode: netns with server-options {qdisc: fq}, or mode: sim";
            }
            if (role == Role.CLIENT || qdisc.equals("none")) {
                return "txtime needs an fq or etf qdisc on the sender's egress; give the server qdisc: fq (or etf), or use mode: sim";
            }
        }
        return null;
    }

    /** Send strategies the running kernel must support: paced GSO needs the QUIC Steps patch, GSO needs UDP_SEGMENT. */
    @Override
    public String hostProblem(Role role, Map<String, String> options, Mode mode, String qdisc, Host host) {
        SendConfig send = mode == Mode.SIM ? null : sendConfig(options);
        if (send == null) {
            return null;
        }
        if (send.pacedGso()) {
            String why = org.pacelab.io.send.KernelSupport.whyNoPacedGsoPatch();
            if (why != null) {
                return "paced-gso is not possible here: " + why + "; mode: sim models it";
            }
        }
        if (send.gsoSegments() > 1) {
            String why = org.pacelab.io.send.KernelSupport.whyNoGso();
            if (why != null) {
                return "gso " + send.gsoSegments() + " is not possible here: " + why + "; mode: sim models it";
            }
        }
        return null;
    }

    private static SendConfig sendConfig(Map<String, String> options) {
        try {
            Map<String, String> m = new LinkedHashMap<>();
            options.forEach((k, v) -> {
                if (SendConfig.OPTION_NAMES.contains("--" + k)) {
                    m.put("--" + k, v);
                }
            });
            return SendConfig.fromOptions(m);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static String sendProblem(Map<String, String> options) {
        try {
            SendConfig.fromOptions(options);
            return null;
        } catch (IllegalArgumentException e) {
            String m = e.getMessage();
            return m.endsWith(".") ? m.substring(0, m.length() - 1) : m;
        }
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
        return pacelab.availability(role.word());
    }

    @Override
    public String version(Role role, Host host, PacelabLauncher pacelab) {
        String v = PacelabPeer.class.getPackage().getImplementationVersion();
        return "pacelab " + (v == null ? "development build" : v);
    }

    @Override
    public Launch server(ServerSetup s, PacelabLauncher pacelab) {
        List<String> args = PacelabCommandLines.server("server", s);
        args.addAll(List.of("--alpn", s.protocol().alpn()));
        PacelabCommandLines.logs(args, s.qlogDir(), s.keyLog());
        options(args, s.options());
        return Launch.of(pacelab.command(args), Map.of(), new Readiness.UdpBound(s.port()));
    }

    @Override
    public Launch client(ClientSetup c, PacelabLauncher pacelab) {
        List<String> args = PacelabCommandLines.client("client", c);
        args.addAll(List.of("--alpn", c.protocol().alpn()));
        PacelabCommandLines.logs(args, null, c.keyLog());
        options(args, c.options());
        PacelabCommandLines.urls(args, c);
        return Launch.of(pacelab.command(args), Map.of(), null);
    }

    @Override
    public ClientOutcome clientOutcome(ClientSetup c, Path stdout) throws IOException {
        return clientLogOutcome(c);
    }

    /**
     * Options as flags; the send path's switches are flags without a value (given when on; {@code --no-gro} when GRO,
     * which is on by default, is off).
     */
    private static void options(List<String> args, Map<String, String> options) {
        options.forEach((k, v) -> {
            if (SWITCHES.contains("--" + k)) {
                if (List.of("on", "true", "yes").contains(v.strip().toLowerCase(java.util.Locale.ROOT))) {
                    args.add("--" + k);
                } else if (("--" + k).equals(SendConfig.GRO)) {
                    args.add("--no-gro");
                }
            } else {
                args.add("--" + k);
                args.add(v);
            }
        });
    }

    /** The outcome of a client that writes pacelab's JSON client log. */
    static ClientOutcome clientLogOutcome(ClientSetup c) throws IOException {
        Path log = c.workDir().resolve(PacelabCommandLines.CLIENT_LOG);
        ClientLog l = ClientLog.read(log);
        return new ClientOutcome(l.totalBytes(), log);
    }
}
