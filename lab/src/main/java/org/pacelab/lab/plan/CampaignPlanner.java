package org.pacelab.lab.plan;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.pacelab.lab.host.Host;
import org.pacelab.lab.peer.Availability;
import org.pacelab.lab.peer.Peer;
import org.pacelab.lab.peer.SimulatedPacelab;
import org.pacelab.lab.peer.PeerOption;
import org.pacelab.lab.peer.Protocol;
import org.pacelab.lab.peer.Role;
import org.pacelab.lab.scenario.HostSetup;
import org.pacelab.lab.scenario.Implementation;
import org.pacelab.lab.scenario.Located;
import org.pacelab.lab.scenario.Location;
import org.pacelab.lab.scenario.Mode;
import org.pacelab.lab.scenario.Problems;
import org.pacelab.lab.scenario.Scenario;
import org.pacelab.lab.scenario.ScenarioException;
import org.pacelab.lab.scenario.ScenarioReader;
import org.pacelab.lab.scenario.Suggestions;
import org.pacelab.lab.scenario.SweepAxis;
import org.pacelab.lab.scenario.Transfer;
import org.pacelab.net.dc.DcFlowMode;
import org.pacelab.net.spec.DirectionSpec;
import org.pacelab.net.spec.LinkSpec;
import org.pacelab.net.spec.LinkSpecParser;
import org.pacelab.net.spec.Presets;
import org.pacelab.net.spec.SpecException;
import org.pacelab.net.spec.Units;

/**
 * Turns a scenario into a campaign plan and checks, before anything starts, everything that depends on the peers,
 * this host and this build: peer names and roles, protocols and modes that go together, option names and values
 * per peer, link fields, kernel facilities (host qdiscs), installed programs, root for netns mode, the simulator.
 * Problems name file:line:column; configurations that cannot run <em>here</em> are skipped with their reason when
 * the scenario says {@code unavailable: skip}.
 */
public final class CampaignPlanner {
    /** The server host's qdisc, an option the runner applies rather than the peer. */
    public static final String QDISC = "qdisc";
    public static final List<String> QDISCS = List.of("none", "fq", "etf");
    /** The sender options the host set-up gives pacelab's servers (as pacelab server --realtime --realtime-priority). */
    static final String REALTIME = "realtime";
    static final String REALTIME_PRIORITY = "realtime-priority";
    /** The only link a direct-mode run has: nothing (the preset none without its access-link wire model). */
    private static final DirectionSpec DIRECT_DOWN = directLink(true);
    private static final DirectionSpec DIRECT_UP = directLink(false);

    private static DirectionSpec directLink(boolean down) {
        try {
            LinkSpec none = LinkSpecParser.parse("none", down ? "wire=off" : "", "");
            return down ? none.down() : none.up();
        } catch (SpecException e) {
            throw new IllegalStateException("the none preset", e);
        }
    }
    static final long DEFAULT_TIMEOUT_FLOOR_NS = 60_000_000_000L;
    static final long UNSHAPED_RATE_FOR_TIMEOUT = 100_000_000L;

    private enum AxisKind { BOTH, SERVER, CLIENT, LINK_DOWN, LINK_UP, SIZE, STREAMS, DC }

    private record Axis(SweepAxis sweep, AxisKind kind, String field) {
        String label() {
            return switch (kind) {
                case BOTH -> field;
                case SERVER -> "server." + field;
                case CLIENT -> "client." + field;
                case LINK_DOWN -> "down." + field;
                case LINK_UP -> "up." + field;
                case SIZE -> "size";
                case STREAMS -> "streams";
                case DC -> field;
            };
        }
    }

    private final Scenario scenario;
    private final PlanningContext ctx;
    private final Problems problems = new Problems();
    private final List<String> skipped = new ArrayList<>();
    private AppliedHostSetup hostSetup;

    private CampaignPlanner(Scenario scenario, PlanningContext ctx) {
        this.scenario = scenario;
        this.ctx = ctx;
    }

    public static CampaignPlan plan(Scenario scenario, PlanningContext ctx) throws ScenarioException {
        return new CampaignPlanner(scenario, ctx).plan();
    }

    private CampaignPlan plan() throws ScenarioException {
        LinkSpec base = null;
        try {
            base = Presets.get(scenario.preset().value());
        } catch (SpecException e) {
            problems.add(scenario.preset().at(), "link.preset: unknown preset '" + scenario.preset().value() + "'"
                    + Suggestions.didYouMean(scenario.preset().value(), Presets.names()) + "; valid presets: "
                    + String.join(", ", Presets.names()));
        }
        List<Axis> axes = axes();
        Set<String> multiModes = new LinkedHashSet<>();
        for (Implementation impl : scenario.implementations()) {
            for (Located<Mode> m : modes(impl)) {
                multiModes.add(m.value().word());
            }
        }
        boolean nameModes = multiModes.size() > 1;
        hostSetup = hostSetup(multiModes);
        List<Configuration> configs = new ArrayList<>();
        Map<String, Location> names = new LinkedHashMap<>();
        for (Implementation impl : scenario.implementations()) {
            Peer server = peer(impl.server(), Role.SERVER);
            Peer client = peer(impl.client(), Role.CLIENT);
            if (server == null || client == null) {
                continue;
            }
            if (Protocol.common(server.protocols(), client.protocols()) == null) {
                problems.add(impl.at(), "implementation " + impl.name().value() + ": server " + server.name() + " speaks "
                        + Protocol.describe(server.protocols()) + " but client " + client.name() + " speaks "
                        + Protocol.describe(client.protocols()) + "; pair peers that speak the same protocol");
                continue;
            }
            checkOptionNames(impl, server, client);
            List<Axis> applicable = axes.stream().filter(a -> applies(a, server, client)).toList();
            for (Located<Mode> mode : modes(impl)) {
                if (!mode.value().supportedBy(server.modes()) || !mode.value().supportedBy(client.modes())) {
                    Peer p = mode.value().supportedBy(server.modes()) ? client : server;
                    problems.add(mode.at(), "implementation " + impl.name().value() + ": " + p.name() + " cannot run in "
                            + mode.value().word() + " mode; it runs in " + words(p.modes()) + modeHint(p, mode.value()));
                    continue;
                }
                // a configuration that cannot run here is still checked for what the scenario says wrongly
                String why = unavailable(impl, mode.value(), server, client);
                if (why != null) {
                    unavailable(mode.at(), impl.name().value() + " (" + mode.value().word() + ")", why);
                }
                for (Map<Axis, Located<String>> point : points(applicable)) {
                    Configuration c = configuration(impl, mode, server, client, point, base, nameModes, why == null);
                    if (c == null || why != null) {
                        continue;
                    }
                    Location previous = names.putIfAbsent(c.name(), impl.at());
                    if (previous != null) {
                        problems.add(impl.at(), "two configurations are both named '" + c.name() + "' (the other one at line "
                                + previous.line() + "); give the implementations different names");
                        continue;
                    }
                    configs.add(c);
                }
            }
        }
        problems.throwIfAny();
        if (configs.isEmpty()) {
            List<String> lines = new ArrayList<>();
            lines.add(scenario.source() + ": no configuration of this scenario can run here:");
            skipped.forEach(s -> lines.add("  " + s));
            throw new ScenarioException(lines);
        }
        return new CampaignPlan(scenario, configs, scenario.seeds(), skipped, hostSetup);
    }

    /** What the plan does about the host set-up: applied when asked (or, with auto, when root) and a run is emulated. */
    private AppliedHostSetup hostSetup(Set<String> modes) {
        HostSetup asked = scenario.hostSetup().value();
        if (!modes.contains(Mode.RELAY.word()) && !modes.contains(Mode.NETNS.word())) {
            return modes.contains(Mode.DIRECT.word()) ? AppliedHostSetup.direct() : AppliedHostSetup.simulated();
        }
        if (asked == HostSetup.OFF) {
            return AppliedHostSetup.off();
        }
        if (!ctx.host().isRoot()) {
            if (asked == HostSetup.ON) {
                problems.add(scenario.hostSetup().at(), "host-setup: on needs root (SCHED_FIFO for the emulator and pacelab's "
                        + "senders); run as root, or use auto (applied when root) or off");
            }
            return AppliedHostSetup.notRoot();
        }
        return AppliedHostSetup.applied();
    }

    // ---- peers and modes ------------------------------------------------------------------------------------

    private Peer peer(Located<String> name, Role role) {
        Peer p = ctx.peers().get(name.value()).orElse(null);
        if (p == null) {
            problems.add(name.at(), "unknown implementation '" + name.value() + "'" + Suggestions.didYouMean(name.value(), ctx.peers().names())
                    + "; valid: " + String.join(", ", ctx.peers().names()));
            return null;
        }
        if (!p.roles().contains(role)) {
            List<String> able = ctx.peers().all().stream().filter(q -> q.roles().contains(role)).map(Peer::name).toList();
            problems.add(name.at(), p.name() + " cannot be the " + role.word() + "; " + role.word() + "s: " + String.join(", ", able));
            return null;
        }
        return p;
    }

    private List<Located<Mode>> modes(Implementation impl) {
        return impl.modes().isEmpty() ? scenario.modes() : impl.modes();
    }

    private static String modeHint(Peer p, Mode m) {
        if (m == Mode.SIM) {
            return " (the simulator runs pacelab's own stack only)";
        }
        if (m == Mode.RELAY && p.protocols().stream().noneMatch(Protocol::overQuic)) {
            return " (it speaks TCP, which the UDP relay does not carry; netns mode needs root)";
        }
        return "";
    }

    /** Why the implementation cannot run in this mode on this host, or null. */
    private String unavailable(Implementation impl, Mode mode, Peer server, Peer client) {
        if (mode == Mode.NETNS && !ctx.host().isRoot()) {
            return "netns mode needs root (network namespaces and TUN devices); run as root or use mode: relay";
        }
        if (mode == Mode.SIM && ctx.simulatorMissingReason() != null) {
            return ctx.simulatorMissingReason();
        }
        for (Role role : Role.values()) {
            Peer p = role == Role.SERVER ? server : client;
            Availability a = p.availability(role, ctx.host(), ctx.pacelab());
            if (!a.usable()) {
                String install = a.debianPackages().isEmpty() ? ""
                        : "; install it with 'pacelab peers install' (root) or 'apt-get install " + String.join(" ", a.debianPackages()) + "'";
                return p.name() + " (" + role.word() + ") cannot run here: " + a.reason() + install;
            }
        }
        return null;
    }

    private void unavailable(Location at, String what, String why) {
        if (scenario.skipUnavailable()) {
            String line = what + ": skipped: " + why;
            if (!skipped.contains(line)) {
                skipped.add(line);
            }
        } else {
            problems.add(at, what + ": " + why + " (or set 'unavailable: skip' to leave it out)");
        }
    }

    // ---- options --------------------------------------------------------------------------------------------

    private static boolean accepts(Peer p, Role role, String option) {
        return (role == Role.SERVER && option.equals(QDISC)) || p.options(role).stream().anyMatch(o -> o.name().equals(option));
    }

    private static List<String> optionNames(Peer p, Role role) {
        List<String> n = new ArrayList<>(p.options(role).stream().map(PeerOption::name).toList());
        if (role == Role.SERVER) {
            n.add(QDISC);
        }
        return n;
    }

    private void checkOptionNames(Implementation impl, Peer server, Peer client) {
        for (Map.Entry<String, Located<String>> e : impl.options().entrySet()) {
            if (!accepts(server, Role.SERVER, e.getKey()) && !accepts(client, Role.CLIENT, e.getKey())) {
                List<String> valid = new ArrayList<>(new LinkedHashSet<>(concat(optionNames(server, Role.SERVER), optionNames(client, Role.CLIENT))));
                problems.add(e.getValue().at(), "options: '" + e.getKey() + "' is not an option of " + peers(server, client)
                        + Suggestions.didYouMean(e.getKey(), valid) + "; valid options: " + list(valid));
            }
        }
        checkRoleOptionNames(impl.serverOptions(), server, Role.SERVER, "server-options");
        checkRoleOptionNames(impl.clientOptions(), client, Role.CLIENT, "client-options");
    }

    private void checkRoleOptionNames(Map<String, Located<String>> options, Peer p, Role role, String key) {
        for (Map.Entry<String, Located<String>> e : options.entrySet()) {
            if (!accepts(p, role, e.getKey())) {
                List<String> valid = optionNames(p, role);
                problems.add(e.getValue().at(), key + ": '" + e.getKey() + "' is not an option of " + p.name() + " as "
                        + role.word() + Suggestions.didYouMean(e.getKey(), valid) + "; valid options: " + list(valid));
            }
        }
    }

    private static String peers(Peer server, Peer client) {
        return server == client ? server.name() : server.name() + " or " + client.name();
    }

    private static String list(List<String> valid) {
        return valid.isEmpty() ? "none" : String.join(", ", valid);
    }

    private static <T> List<T> concat(List<T> a, List<T> b) {
        List<T> c = new ArrayList<>(a);
        c.addAll(b);
        return c;
    }

    // ---- sweep ----------------------------------------------------------------------------------------------

    private List<Axis> axes() {
        List<Axis> out = new ArrayList<>();
        Set<String> allOptions = new LinkedHashSet<>();
        allOptions.add(QDISC);
        for (Peer p : ctx.peers().all()) {
            for (Role r : p.roles()) {
                p.options(r).forEach(o -> allOptions.add(o.name()));
            }
        }
        for (SweepAxis s : scenario.sweep()) {
            String key = s.key().value();
            Axis a;
            if (key.startsWith("link.down.") || key.startsWith("link.up.")) {
                boolean down = key.startsWith("link.down.");
                String field = key.substring(down ? "link.down.".length() : "link.up.".length());
                if (!ScenarioReader.LINK_FIELD_KEYS.contains(field)) {
                    problems.add(s.key().at(), "sweep: unknown link field '" + field + "' in '" + key + "'"
                            + Suggestions.didYouMean(field, ScenarioReader.LINK_FIELD_KEYS) + "; valid fields: "
                            + String.join(", ", ScenarioReader.LINK_FIELD_KEYS));
                    continue;
                }
                a = new Axis(s, down ? AxisKind.LINK_DOWN : AxisKind.LINK_UP, field);
            } else if (key.startsWith("link.dc.")) {
                String field = key.substring("link.dc.".length());
                if (!DcPlanning.checkSweep(s, field, scenario, problems)) {
                    continue;
                }
                a = new Axis(s, AxisKind.DC, field);
            } else if (key.equals("transfer.size")) {
                for (Located<String> v : s.values()) {
                    sizeOf(v);
                }
                a = new Axis(s, AxisKind.SIZE, "size");
            } else if (key.equals("transfer.streams")) {
                for (Located<String> v : s.values()) {
                    streamsOf(v);
                }
                a = new Axis(s, AxisKind.STREAMS, "streams");
            } else if (key.startsWith("server.") || key.startsWith("client.")) {
                boolean server = key.startsWith("server.");
                String option = key.substring(7);
                a = new Axis(s, server ? AxisKind.SERVER : AxisKind.CLIENT, option);
                if (!allOptions.contains(option)) {
                    unknownSweepKey(s, option, allOptions);
                    continue;
                }
            } else if (key.contains(".")) {
                problems.add(s.key().at(), "sweep: unknown key '" + key + "'; sweep a peer option (cc, server.cc, client.cc), "
                        + "a link field (link.down.queue, link.up.delay, link.dc.batch, link.dc.a.rate), transfer.size or "
                        + "transfer.streams");
                continue;
            } else {
                if (!allOptions.contains(key)) {
                    unknownSweepKey(s, key, allOptions);
                    continue;
                }
                a = new Axis(s, AxisKind.BOTH, key);
            }
            out.add(a);
        }
        for (Axis a : out) {
            if (a.kind == AxisKind.BOTH || a.kind == AxisKind.SERVER || a.kind == AxisKind.CLIENT) {
                boolean used = false;
                for (Implementation impl : scenario.implementations()) {
                    Peer s = ctx.peers().get(impl.server().value()).orElse(null);
                    Peer c = ctx.peers().get(impl.client().value()).orElse(null);
                    if (s != null && c != null && applies(a, s, c)) {
                        used = true;
                    }
                }
                if (!used && !scenario.implementations().isEmpty()) {
                    problems.add(a.sweep.key().at(), "sweep: no implementation of this scenario takes option '" + a.field
                            + "' (as " + (a.kind == AxisKind.BOTH ? "server or client" : a.kind.name().toLowerCase(Locale.ROOT)) + ")");
                }
            }
        }
        return out;
    }

    private void unknownSweepKey(SweepAxis s, String option, Set<String> allOptions) {
        problems.add(s.key().at(), "sweep: '" + option + "' is not an option of any peer" + Suggestions.didYouMean(option, allOptions)
                + "; valid keys: peer options (" + String.join(", ", allOptions) + "), link.down.FIELD, link.up.FIELD, "
                + "transfer.size, transfer.streams");
    }

    private static boolean applies(Axis a, Peer server, Peer client) {
        return switch (a.kind) {
            case BOTH -> accepts(server, Role.SERVER, a.field) || accepts(client, Role.CLIENT, a.field);
            case SERVER -> accepts(server, Role.SERVER, a.field);
            case CLIENT -> accepts(client, Role.CLIENT, a.field);
            default -> true;
        };
    }

    /** The sweep's points: the union of its grids' cartesian products, grid by grid in file order. */
    private List<Map<Axis, Located<String>>> points(List<Axis> axes) {
        int grids = scenario.sweep().stream().mapToInt(SweepAxis::grid).max().orElse(0) + 1;
        List<Map<Axis, Located<String>>> points = new ArrayList<>();
        for (int g = 0; g < grids; g++) {
            int grid = g;
            points.addAll(grid(axes.stream().filter(a -> a.sweep.grid() == grid).toList()));
        }
        return points;
    }

    /** Whether the sweep is a union of several grids (then every axis names its configurations). */
    private boolean severalGrids() {
        return scenario.sweep().stream().anyMatch(a -> a.grid() > 0);
    }

    private static List<Map<Axis, Located<String>>> grid(List<Axis> axes) {
        List<Map<Axis, Located<String>>> points = new ArrayList<>();
        points.add(new LinkedHashMap<>());
        for (Axis a : axes) {
            List<Map<Axis, Located<String>>> next = new ArrayList<>();
            for (Map<Axis, Located<String>> p : points) {
                for (Located<String> v : a.sweep.values()) {
                    Map<Axis, Located<String>> q = new LinkedHashMap<>(p);
                    q.put(a, v);
                    next.add(q);
                }
            }
            points = next;
        }
        return points;
    }

    // ---- one configuration ----------------------------------------------------------------------------------

    private Configuration configuration(Implementation impl, Located<Mode> mode, Peer server, Peer client,
                                        Map<Axis, Located<String>> point, LinkSpec base, boolean nameModes, boolean checkHost) {
        Map<String, Located<String>> so = new LinkedHashMap<>();
        Map<String, Located<String>> co = new LinkedHashMap<>();
        impl.options().forEach((k, v) -> {
            if (accepts(server, Role.SERVER, k)) {
                so.put(k, v);
            }
            if (accepts(client, Role.CLIENT, k)) {
                co.put(k, v);
            }
        });
        so.putAll(impl.serverOptions());
        co.putAll(impl.clientOptions());
        Map<String, Located<String>> down = new LinkedHashMap<>(scenario.linkDown());
        Map<String, Located<String>> up = new LinkedHashMap<>(scenario.linkUp());
        Located<Long> size = new Located<>(scenario.transfer().value().bytesPerStream(), scenario.sizeAt());
        int streams = scenario.transfer().value().streams();
        Map<String, String> sweepPoint = new LinkedHashMap<>();
        Map<String, Located<String>> dcPoint = new LinkedHashMap<>();
        StringBuilder name = new StringBuilder(impl.name().value());
        for (Map.Entry<Axis, Located<String>> e : point.entrySet()) {
            Axis a = e.getKey();
            Located<String> v = e.getValue();
            switch (a.kind) {
                case BOTH -> {
                    if (accepts(server, Role.SERVER, a.field)) {
                        so.put(a.field, v);
                    }
                    if (accepts(client, Role.CLIENT, a.field)) {
                        co.put(a.field, v);
                    }
                }
                case SERVER -> so.put(a.field, v);
                case CLIENT -> co.put(a.field, v);
                case LINK_DOWN -> down.put(a.field, v);
                case LINK_UP -> up.put(a.field, v);
                case SIZE -> {
                    Long n = sizeOf(v);
                    size = new Located<>(n == null ? size.value() : n, v.at());
                }
                case STREAMS -> {
                    Integer n = streamsOf(v);
                    streams = n == null ? streams : n;
                }
                case DC -> dcPoint.put(a.field, v);
            }
            if (a.sweep.values().size() > 1 || severalGrids()) {
                name.append(' ').append(a.label()).append('=').append(v.value());
                sweepPoint.put(a.label(), v.value());
            }
        }
        if (nameModes) {
            name.append(" (").append(mode.value().word()).append(')');
        }
        String qdisc = "none";
        Located<String> q = so.remove(QDISC);
        if (q != null) {
            qdisc = q.value().strip().toLowerCase(Locale.ROOT);
            if (!QDISCS.contains(qdisc)) {
                problems.add(q.at(), "qdisc: '" + q.value() + "' is not valid" + Suggestions.didYouMean(qdisc, QDISCS)
                        + "; valid values: " + String.join(", ", QDISCS));
                return null;
            }
            if (mode.value() == Mode.DIRECT && !qdisc.equals("none")) {
                problems.add(q.at(), "qdisc: " + qdisc + " cannot be used in direct mode: it would replace the qdisc of the host's "
                        + "loopback device for every program; use mode: netns or mode: sim");
                return null;
            }
            if (mode.value() == Mode.RELAY && !qdisc.equals("none")) {
                problems.add(q.at(), "qdisc: " + qdisc + " cannot be used in relay mode: it would replace the qdisc of the host's "
                        + "loopback device for every program; use mode: netns (root, and a kernel with " + qdisc + ") or mode: sim, "
                        + "where " + qdisc + " is modelled");
                return null;
            }
        }
        boolean ok = checkValues(server, Role.SERVER, so, impl) & checkValues(client, Role.CLIENT, co, impl);
        if (base == null || !ok) {
            return null;
        }
        if (!modePossible(server, Role.SERVER, so, mode, qdisc, impl) | !modePossible(client, Role.CLIENT, co, mode, qdisc, impl)) {
            return null;
        }
        if (checkHost) {
            String why = hostLimit(server, Role.SERVER, so, mode.value(), qdisc);
            if (why == null) {
                why = hostLimit(client, Role.CLIENT, co, mode.value(), qdisc);
            }
            if (why != null) {
                unavailable(mode.at(), name + (nameModes ? "" : " (" + mode.value().word() + ")"), why);
                return null;
            }
        }
        DirectionSpec d = direction("link.down", base.down(), down);
        DirectionSpec u = direction("link.up", base.up(), up);
        if (d == null || u == null) {
            return null;
        }
        if (mode.value() == Mode.DIRECT && (scenario.dc() != null || !d.equals(DIRECT_DOWN) || !u.equals(DIRECT_UP))) {
            problems.add(mode.at(), "mode direct: server and client talk over loopback without the emulator, so the link cannot "
                    + "shape, delay or drop anything; use link: {preset: none, down: {wire: off}} (or mode: relay to emulate it)");
            return null;
        }
        LinkSpec link = new LinkSpec(scenario.preset().value(), d, u);
        DcSetup dc = null;
        if (scenario.dc() != null) {
            dc = DcPlanning.setup(scenario, dcPoint, up, this::resolve, problems);
            if (dc == null) {
                return null;
            }
            link = new LinkSpec("dc", dc.spec().a(), dc.spec().up());
            if (dc.durationNs() > 0) {
                size = new Located<>(DcPlanning.DURATION_RUN_BYTES, size.at());
                streams = 1;
            }
        }
        Located<String> starts = so.get(SimulatedPacelab.FLOW_STARTS);
        if (starts != null && mode.value() == Mode.SIM) {
            // one start per flow: the planner is what knows the scenario's flows
            String why = SimulatedPacelab.flowStartsProblem(values(so), dc != null
                    ? dc.flows().stream().map(DcFlowMode::label).toList() : List.of(DcFlowMode.DUAL.label()));
            if (why != null) {
                problems.add(starts.at(), "implementation " + impl.name().value() + ", " + server.name() + " (server): " + why);
                return null;
            }
        }
        Transfer transfer = new Transfer(size.value(), streams);
        Map<String, String> serverOptions = new LinkedHashMap<>(server.withDefaultsNamed(Role.SERVER, values(so)));
        Map<String, String> clientOptions = new LinkedHashMap<>(client.withDefaultsNamed(Role.CLIENT, values(co)));
        boolean realtimeEmulator = hostSetup.realtime() && (mode.value() == Mode.RELAY || mode.value() == Mode.NETNS);
        int emulatorWarmUp = mode.value() == Mode.RELAY || mode.value() == Mode.NETNS ? scenario.emulatorWarmUp().value() : 0;
        if (realtimeEmulator && accepts(server, Role.SERVER, REALTIME) && !serverOptions.containsKey(REALTIME)) {
            serverOptions.put(REALTIME, "on");
            serverOptions.put(REALTIME_PRIORITY, HostSetup.SENDER_PRIORITY);
        }
        String downText = fields(down);
        String upText = fields(up);
        String identity = "server=" + server.name() + ";client=" + client.name() + ";mode=" + mode.value().word()
                + ";so=" + new TreeMap<>(serverOptions) + ";co=" + new TreeMap<>(clientOptions) + ";qdisc=" + qdisc
                + ";down=" + d.format() + ";up=" + u.format() + ";bytes=" + transfer.bytesPerStream() + ";streams=" + streams
                + (realtimeEmulator ? ";emulator=realtime" : "")
                + (emulatorWarmUp > 0 ? ";emulator-warmup=" + emulatorWarmUp : "");
        if (dc != null) {
            identity += ";dc=" + dc.spec().format() + ";a=" + dc.spec().a().format() + ";b=" + dc.spec().b().format()
                    + ";dcup=" + dc.spec().up().format() + ";flows=" + dc.flowWords() + ";duration=" + dc.durationNs();
            downText = DcPlanning.describe(dc);
        }
        String id = slug(name.toString()) + "-" + hash(identity);
        long timeout = scenario.timeoutNs() > 0 ? scenario.timeoutNs()
                : dc != null ? DcPlanning.defaultTimeout(dc, transfer) : defaultTimeout(d, transfer);
        return new Configuration(name.toString(), id, impl.name().value(), mode.value(), server, client, serverOptions,
                clientOptions, qdisc, scenario.preset().value(), downText, upText, link, transfer, sweepPoint, timeout, dc,
                realtimeEmulator, emulatorWarmUp);
    }

    /** Why this host cannot run the configuration (a qdisc the kernel lacks, a send strategy it cannot do), or null. */
    private String hostLimit(Peer p, Role role, Map<String, Located<String>> options, Mode mode, String qdisc) {
        if (role == Role.SERVER && mode == Mode.NETNS && !qdisc.equals("none")) {
            Host.QdiscSupport support = ctx.host().qdisc(qdisc);
            if (!support.available()) {
                return "qdisc " + qdisc + " is not possible in netns mode here: " + support.detail() + "; mode: sim models it";
            }
        }
        String why = p.hostProblem(role, values(options), mode, qdisc, ctx.host());
        return why == null ? null : p.name() + " (" + role.word() + "): " + why;
    }

    private boolean modePossible(Peer p, Role role, Map<String, Located<String>> options, Located<Mode> mode, String qdisc,
                                 Implementation impl) {
        String why = p.modeProblem(role, values(options), mode.value(), qdisc);
        if (why == null) {
            return true;
        }
        // the sentence starts with the option it is about ("txtime needs ...")
        Location at = options.entrySet().stream().filter(e -> why.startsWith(e.getKey() + " ")).map(e -> e.getValue().at())
                .findFirst().orElse(options.isEmpty() ? impl.at() : options.values().iterator().next().at());
        problems.add(at, "implementation " + impl.name().value() + ", " + p.name() + " (" + role.word() + "): " + why);
        return false;
    }

    private boolean checkValues(Peer p, Role role, Map<String, Located<String>> options, Implementation impl) {
        boolean ok = true;
        for (Map.Entry<String, Located<String>> e : options.entrySet()) {
            PeerOption o = p.options(role).stream().filter(x -> x.name().equals(e.getKey())).findFirst().orElse(null);
            if (o == null) {
                continue;
            }
            String problem = o.problem(e.getValue().value());
            if (problem != null) {
                problems.add(e.getValue().at(), p.name() + " " + problem);
                ok = false;
            }
        }
        if (ok) {
            String c = p.combinationProblem(role, values(options));
            if (c != null) {
                Location at = options.isEmpty() ? impl.at() : options.values().iterator().next().at();
                problems.add(at, "implementation " + impl.name().value() + ", " + p.name() + " (" + role.word() + "): " + c);
                ok = false;
            }
        }
        return ok;
    }

    private DirectionSpec direction(String where, DirectionSpec base, Map<String, Located<String>> fields) {
        DirectionSpec d = base;
        for (Map.Entry<String, Located<String>> e : fields.entrySet()) {
            String value = e.getValue().value().strip();
            if (value.isEmpty() || value.matches(".*\\s.*")) {
                problems.add(e.getValue().at(), where + " " + e.getKey() + ": '" + value + "' must be one word without spaces, "
                        + "e.g. rate=40mbit, delay=20ms, queue=143p");
                return null;
            }
            if (e.getKey().equals("trace")) {
                value = resolve(value);
            }
            try {
                d = LinkSpecParser.apply(where, d, e.getKey() + "=" + value);
            } catch (SpecException ex) {
                problems.add(e.getValue().at(), ex.getMessage());
                return null;
            }
        }
        try {
            return LinkSpecParser.apply(where, d, "");
        } catch (SpecException ex) {
            problems.add(scenario.preset().at(), ex.getMessage());
            return null;
        }
    }

    private String fields(Map<String, Located<String>> fields) {
        StringBuilder b = new StringBuilder();
        fields.forEach((k, v) -> {
            if (!b.isEmpty()) {
                b.append(' ');
            }
            b.append(k).append('=').append(k.equals("trace") ? resolve(v.value()) : v.value());
        });
        return b.toString();
    }

    private String resolve(String path) {
        Path p = Path.of(path);
        return p.isAbsolute() || ctx.baseDir() == null ? path : ctx.baseDir().resolve(p).normalize().toString();
    }

    private Long sizeOf(Located<String> v) {
        try {
            long n = Units.parseSize("transfer.size", v.value());
            if (n > 0) {
                return n;
            }
            problems.add(v.at(), "transfer.size: must be at least 1 byte");
        } catch (SpecException e) {
            problems.add(v.at(), e.getMessage());
        }
        return null;
    }

    private Integer streamsOf(Located<String> v) {
        try {
            int n = Integer.parseInt(v.value().strip());
            if (n >= 1 && n <= 1000) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        problems.add(v.at(), "transfer.streams: '" + v.value() + "' is not a whole number from 1 to 1000");
        return null;
    }

    private static Map<String, String> values(Map<String, Located<String>> m) {
        Map<String, String> out = new LinkedHashMap<>();
        m.forEach((k, v) -> out.put(k, v.value().strip()));
        return out;
    }

    /** 60 s plus four times the transfer's duration at the downlink rate (100 Mbit/s when unshaped). */
    static long defaultTimeout(DirectionSpec down, Transfer t) {
        long rate = down.rateBps() > 0 ? down.rateBps() : UNSHAPED_RATE_FOR_TIMEOUT;
        double seconds = 8.0 * t.totalBytes() / rate;
        return DEFAULT_TIMEOUT_FLOOR_NS + (long) (4 * seconds * 1e9);
    }

    private static String words(Set<Mode> modes) {
        return String.join(", ", modes.stream().map(Mode::word).toList()) + " mode";
    }

    static String slug(String name) {
        String s = name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9.]+", "-").replaceAll("(^-+|-+$)", "");
        return s.isEmpty() ? "config" : s.length() > 60 ? s.substring(0, 60) : s;
    }

    static String hash(String text) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 4);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
