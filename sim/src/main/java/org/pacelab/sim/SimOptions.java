package org.pacelab.sim;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.pacelab.net.dc.DcFlowMode;
import org.pacelab.net.dc.DcSpec;
import org.pacelab.net.dc.DcSpecParser;
import org.pacelab.net.spec.LinkSpec;
import org.pacelab.net.spec.LinkSpecParser;
import org.pacelab.net.spec.SpecException;
import org.pacelab.net.spec.Units;
import org.pacelab.quic.conn.CongestionConfig;
import org.pacelab.quic.crypto.CipherSuite;
import org.pacelab.sim.host.HostConfig;
import org.pacelab.sim.host.HostTiming;
import org.pacelab.sim.host.QdiscConfig;
import org.pacelab.sim.host.SendPathConfig;

/**
 * Builds a {@link SimScenario} from options named as on the command line ({@code --preset quic-steps --size
 * 100MiB --cc cubic --pacer interval --gso 16 --qdisc fq --txtime ...}), as scenario files and {@code pacelab sim}
 * give them: keys with their leading dashes, values as text, flags with an empty value (or on/off). Every bad key
 * or value raises {@link IllegalArgumentException} with one sentence naming the option and the valid choices.
 */
public final class SimOptions {
    public static final List<String> LINK = List.of("--preset", "--down", "--up", "--dc", "--path-a", "--path-b", "--seed");
    public static final List<String> TRANSFER = List.of("--flows", "--flow-starts", "--duration", "--size", "--streams", "--alpn", "--timeout");
    public static final List<String> QUIC = List.of("--ciphers", "--max-udp-payload", "--idle-timeout", "--key-update",
            "--ack-threshold");
    public static final List<String> HOST = List.of("--send", "--gso", "--sendmmsg", "--txtime", "--paced-gso",
            "--pacing-lookahead", "--recv-batch", "--qdisc", "--fq-quantum", "--fq-initial-quantum", "--fq-horizon",
            "--fq-flow-limit", "--fq-timer-slack", "--etf-delta", "--udp-buffer", "--host-model", "--client-send",
            "--servers");
    /** {@code --servers}: one server host serving every pair (the relay's one server process), or one per pair (netns). */
    public static final List<String> SERVERS = List.of("shared", "per-flow");
    public static final List<String> OUTPUT = List.of("--snaplen", "--tap", "--qlog", "--analyze", "--client-qlog");
    /** Every option name accepted, in documentation order. */
    public static final List<String> NAMES;

    static {
        List<String> all = new ArrayList<>();
        all.addAll(LINK);
        all.addAll(TRANSFER);
        all.addAll(QUIC);
        all.addAll(CongestionConfig.OPTION_NAMES);
        all.addAll(HOST);
        all.addAll(OUTPUT);
        NAMES = List.copyOf(all);
    }

    /**
     * What each client asks for in a fixed-duration run without {@code --size}: more than any link here carries in
     * a run (the synthetic content is generated, not stored).
     */
    public static final long DURATION_RUN_BYTES = 1L << 40;

    /** tc-etf's example delta (man tc-etf). */
    public static final long DEFAULT_ETF_DELTA = 300_000L;

    private SimOptions() {}

    /** @throws IllegalArgumentException one sentence naming the option and what is valid */
    public static SimScenario parse(Map<String, String> options, Path outputDir) {
        Set<String> known = new LinkedHashSet<>(NAMES);
        for (String k : options.keySet()) {
            if (!known.contains(k)) {
                throw new IllegalArgumentException("'" + k + "' is not a simulation option; valid: " + String.join(", ", NAMES));
            }
        }
        Map<String, String> o = new LinkedHashMap<>(options);
        SimScenario s = SimScenario.defaults(outputDir);
        try {
            if (o.containsKey("--dc")) {
                if (o.containsKey("--preset")) {
                    throw new IllegalArgumentException("--preset does not apply with --dc; the paths are --path-a and --path-b "
                            + "(or a.KEY=, b.KEY= in --dc) and the uplink is --up");
                }
                if (o.containsKey("--down")) {
                    throw new IllegalArgumentException("--down does not apply with --dc; give the two downlink paths with "
                            + "--path-a and --path-b");
                }
                DcSpec dc = DcSpecParser.parse(o.get("--dc"), o.get("--path-a"), o.get("--path-b"), o.get("--up"));
                s = s.withDc(dc);
            } else {
                for (String k : List.of("--path-a", "--path-b")) {
                    if (o.containsKey(k)) {
                        throw new IllegalArgumentException(k + " needs --dc (a dual-connectivity link); for one path use --down");
                    }
                }
                LinkSpec link = LinkSpecParser.parse(o.getOrDefault("--preset", "quic-steps"), o.get("--down"), o.get("--up"));
                s = s.withLink(link);
            }
            long duration = o.containsKey("--duration") ? Units.parseDuration("--duration", o.get("--duration")) : 0;
            if (o.containsKey("--duration") && duration <= 0) {
                throw new IllegalArgumentException("--duration: must be positive, e.g. 20s");
            }
            if (duration > 0 && !o.containsKey("--timeout")) {
                s = s.withTimeout(Math.max(s.timeout(), duration + DEFAULT_DURATION_MARGIN));
            }
            s = s.withFlows(o.containsKey("--flows") ? flows(o.get("--flows"), s.dc() != null) : s.flows(), duration);
            if (duration > 0 && !o.containsKey("--size")) {
                s = s.withTransfer(DURATION_RUN_BYTES, s.streams());
            }
            if (o.containsKey("--size") || o.containsKey("--streams")) {
                s = s.withTransfer(o.containsKey("--size") ? Units.parseSize("--size", o.get("--size").toLowerCase(Locale.ROOT))
                        : s.transferBytes(), o.containsKey("--streams") ? integer("--streams", o.get("--streams")) : s.streams());
            }
            if (o.containsKey("--timeout")) {
                s = s.withTimeout(Units.parseDuration("--timeout", o.get("--timeout")));
            }
            long idle = o.containsKey("--idle-timeout") ? Units.parseDuration("--idle-timeout", o.get("--idle-timeout"))
                    : s.idleTimeout();
            long bufferBytes = o.containsKey("--udp-buffer")
                    ? Units.parseSize("--udp-buffer", o.get("--udp-buffer").toLowerCase(Locale.ROOT)) : 32L << 20;
            HostTiming timing = o.containsKey("--host-model") ? hostModel(o.get("--host-model")) : HostTiming.defaults();
            HostConfig server = new HostConfig(o.getOrDefault("--send", "park"), sendPath(o), qdisc(o), timing, bufferBytes);
            HostConfig client = HostConfig.defaults().withTiming(timing).withUdpBuffer(bufferBytes)
                    .withSend(o.getOrDefault("--client-send", "park"));
            s = new SimScenario(s.link(), o.containsKey("--seed") ? longValue("--seed", o.get("--seed")) : s.seed(),
                    s.transferBytes(), s.streams(), o.getOrDefault("--alpn", "h3"),
                    CongestionConfig.fromOptions(o), ciphers(o.get("--ciphers")),
                    o.containsKey("--max-udp-payload") ? integer("--max-udp-payload", o.get("--max-udp-payload")) : s.maxUdpPayload(),
                    idle, o.containsKey("--key-update") ? longValue("--key-update", o.get("--key-update")) : 0,
                    server, client, outputDir,
                    o.containsKey("--snaplen") ? integer("--snaplen", o.get("--snaplen")) : 0,
                    s.timeout(), s.serverAddress(), s.clientAddress(), !o.containsKey("--analyze") || flag("--analyze", o.get("--analyze")),
                    o.containsKey("--client-qlog") && flag("--client-qlog", o.get("--client-qlog")),
                    o.containsKey("--ack-threshold") ? integer("--ack-threshold", o.get("--ack-threshold")) : 2,
                    s.dc(), s.flows(), s.duration(), !o.containsKey("--tap") || flag("--tap", o.get("--tap")),
                    !o.containsKey("--qlog") || flag("--qlog", o.get("--qlog")), serverPerFlow(o.get("--servers")),
                    o.containsKey("--flow-starts") ? flowStarts(o.get("--flow-starts")) : List.of());
            return s;
        } catch (SpecException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /** A fixed-duration run's default timeout is its duration plus this. */
    static final long DEFAULT_DURATION_MARGIN = 60_000_000_000L;

    /**
     * {@code --flows dc,a,b}: one client/server pair per entry and how it uses the paths (dc, a, b), or a count N
     * (N pairs: on a dual-connectivity link dc, a, b, dc, ... — the study's fairness setup is 3; on one path all dc).
     */
    static List<DcFlowMode> flows(String text, boolean dc) throws SpecException {
        String t = text == null ? "" : text.strip();
        if (t.matches("\\d+")) {
            int n = integer("--flows", t);
            if (n < 1 || n > SimScenario.MAX_FLOWS) {
                throw new IllegalArgumentException("--flows: " + n + " is out of range; valid: 1 to " + SimScenario.MAX_FLOWS
                        + " (or a list such as dc,a,b)");
            }
            List<DcFlowMode> out = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                out.add(dc ? DcFlowMode.values()[i % DcFlowMode.values().length] : DcFlowMode.DUAL);
            }
            return out;
        }
        List<DcFlowMode> out = new ArrayList<>();
        for (String part : t.split(",")) {
            out.add(DcFlowMode.parse("--flows", part));
        }
        return out;
    }

    /**
     * {@code --flow-starts 0s,2s,2s}: when each pair's client starts, after the run's start, one time per entry of
     * {@code --flows} in its order (the count is checked by {@link SimScenario}); each client then downloads for
     * {@code --duration} from its own start.
     */
    public static List<Long> flowStarts(String text) throws SpecException {
        String t = text == null ? "" : text.strip();
        List<Long> out = new ArrayList<>();
        for (String part : t.split(",", -1)) {
            String p = part.strip();
            if (p.startsWith("-")) {
                throw new IllegalArgumentException("--flow-starts: '" + p + "' is negative; valid: a time of 0 or later per flow, "
                        + "counted from the run's start (e.g. 0s,2s,2s; shift every flow so the earliest is 0)");
            }
            if (p.isEmpty()) {
                throw new IllegalArgumentException("--flow-starts: '" + text + "' has an empty entry; valid: one time per flow, "
                        + "comma-separated, e.g. 0s,2s,2s");
            }
            out.add(Units.parseDuration("--flow-starts", p));
        }
        return out;
    }

    /** {@code --servers shared|per-flow} (absent: shared). */
    static boolean serverPerFlow(String value) {
        if (value == null) {
            return false;
        }
        String v = value.strip().toLowerCase(Locale.ROOT);
        if (!SERVERS.contains(v)) {
            throw new IllegalArgumentException("--servers: '" + value + "' is not a server layout; valid: "
                    + String.join(", ", SERVERS) + " (shared: one server host serves every pair, as in relay mode; per-flow: "
                    + "one server host per pair, as in netns mode)");
        }
        return v.equals("per-flow");
    }

    private static SendPathConfig sendPath(Map<String, String> o) throws SpecException {
        boolean txtime = o.containsKey("--txtime") && flag("--txtime", o.get("--txtime"));
        boolean pacedGso = o.containsKey("--paced-gso") && flag("--paced-gso", o.get("--paced-gso"));
        long lookahead = o.containsKey("--pacing-lookahead") ? Units.parseDuration("--pacing-lookahead", o.get("--pacing-lookahead"))
                : txtime ? SendPathConfig.DEFAULT_TXTIME_LOOKAHEAD : 0;
        return new SendPathConfig(o.containsKey("--gso") ? integer("--gso", o.get("--gso")) : 1,
                o.containsKey("--sendmmsg") ? integer("--sendmmsg", o.get("--sendmmsg")) : 1,
                txtime, pacedGso, lookahead, o.containsKey("--recv-batch") ? integer("--recv-batch", o.get("--recv-batch")) : 1);
    }

    private static QdiscConfig qdisc(Map<String, String> o) throws SpecException {
        String name = o.getOrDefault("--qdisc", "pfifo").trim().toLowerCase(Locale.ROOT);
        List<String> fqOptions = List.of("--fq-quantum", "--fq-initial-quantum", "--fq-horizon", "--fq-flow-limit", "--fq-timer-slack");
        for (String k : fqOptions) {
            if (o.containsKey(k) && !name.equals("fq")) {
                throw new IllegalArgumentException(k + " applies to --qdisc fq only (the qdisc is " + name + ")");
            }
        }
        if (o.containsKey("--etf-delta") && !name.equals("etf")) {
            throw new IllegalArgumentException("--etf-delta applies to --qdisc etf only (the qdisc is " + name + ")");
        }
        return switch (name) {
            case "pfifo" -> new QdiscConfig.Pfifo();
            case "fq" -> {
                QdiscConfig.Fq d = QdiscConfig.Fq.linuxDefaults();
                yield new QdiscConfig.Fq(
                        o.containsKey("--fq-quantum") ? sizeInt("--fq-quantum", o.get("--fq-quantum")) : d.quantumBytes(),
                        o.containsKey("--fq-initial-quantum") ? sizeInt("--fq-initial-quantum", o.get("--fq-initial-quantum")) : d.initialQuantumBytes(),
                        o.containsKey("--fq-horizon") ? Units.parseDuration("--fq-horizon", o.get("--fq-horizon")) : d.horizonNanos(),
                        o.containsKey("--fq-flow-limit") ? integer("--fq-flow-limit", o.get("--fq-flow-limit")) : d.flowLimit(),
                        o.containsKey("--fq-timer-slack") ? Units.parseDuration("--fq-timer-slack", o.get("--fq-timer-slack")) : d.timerSlackNanos());
            }
            case "etf" -> new QdiscConfig.Etf(o.containsKey("--etf-delta")
                    ? Units.parseDuration("--etf-delta", o.get("--etf-delta")) : DEFAULT_ETF_DELTA);
            default -> throw new IllegalArgumentException("--qdisc: '" + o.get("--qdisc") + "' is not a modelled qdisc; valid: "
                    + String.join(", ", QdiscConfig.NAMES));
        };
    }

    private static HostTiming hostModel(String file) {
        HostTiming named = HostTiming.named(file);
        if (named != null) {
            return named;
        }
        if (!java.nio.file.Files.isRegularFile(Path.of(file))) {
            throw new IllegalArgumentException("--host-model: " + file + " is neither a bundled model (" + String.join(", ",
                    HostTiming.NAMES) + ") nor a file (write one with 'pacelab sim calibrate --out FILE')");
        }
        try {
            return HostTiming.load(Path.of(file));
        } catch (IOException e) {
            throw new IllegalArgumentException("--host-model: " + e.getMessage(), e);
        }
    }

    static List<CipherSuite> ciphers(String list) {
        if (list == null) {
            return org.pacelab.quic.tls.TlsConfig.ALL_SUITES;
        }
        List<CipherSuite> out = new ArrayList<>();
        for (String c : list.split(",")) {
            out.add(switch (c.trim().toLowerCase(Locale.ROOT)) {
                case "aes128", "aes-128-gcm", "tls_aes_128_gcm_sha256" -> CipherSuite.AES_128_GCM_SHA256;
                case "aes256", "aes-256-gcm", "tls_aes_256_gcm_sha384" -> CipherSuite.AES_256_GCM_SHA384;
                case "chacha20", "chacha20-poly1305", "tls_chacha20_poly1305_sha256" -> CipherSuite.CHACHA20_POLY1305_SHA256;
                default -> throw new IllegalArgumentException("--ciphers: '" + c + "' is not a cipher suite; valid: aes128, aes256, chacha20");
            });
        }
        return out;
    }

    private static boolean flag(String key, String value) {
        String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        return switch (v) {
            case "", "on", "true", "yes" -> true;
            case "off", "false", "no" -> false;
            default -> throw new IllegalArgumentException(key + ": '" + value + "' is not a switch value; valid: on, off");
        };
    }

    private static int integer(String key, String value) {
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + ": '" + value + "' is not a whole number");
        }
    }

    private static long longValue(String key, String value) {
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + ": '" + value + "' is not a whole number");
        }
    }

    private static int sizeInt(String key, String value) throws SpecException {
        long v = Units.parseSize(key, value.toLowerCase(Locale.ROOT));
        if (v > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(key + ": " + value + " is too large");
        }
        return (int) v;
    }
}
