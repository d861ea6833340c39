package org.pacelab.lab.peer;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.pacelab.net.spec.SpecException;
import org.pacelab.quic.conn.CongestionConfig;
import org.pacelab.sim.SimOptions;

/**
 * How pacelab's scenario options map onto the simulator's ({@link SimOptions}): the server's options are the
 * simulated server's (its host model, send path and qdisc); both endpoints share the congestion and pacing options,
 * as the simulator builds one configuration for both; the client's own host takes only {@code send}
 * ({@code --client-send}). Options only the simulator has (the fq and etf qdisc parameters, {@code host-model})
 * are pacelab options that work in sim mode only.
 */
public final class SimulatedPacelab {
    /** Options that exist only in the simulator's model of the host. */
    public static final List<String> SIM_ONLY = List.of("fq-quantum", "fq-initial-quantum", "fq-horizon", "fq-flow-limit",
            "fq-timer-slack", "etf-delta", "host-model", "servers", SimulatedPacelab.FLOW_STARTS);
    /**
     * {@code flow-starts: "0s,2s,2s"}: when each flow's simulated client starts (one time per entry of the scenario's
     * {@code flows}); the relay and netns runners start every client at once.
     */
    public static final String FLOW_STARTS = "flow-starts";
    /** Every option the simulated server takes. */
    public static final Set<String> SERVER_OPTIONS;
    /** The real endpoints' JIT warm-up ({@code --warmup}): virtual time needs none, the simulator drops it. */
    public static final String WARMUP = "warmup";
    /** What the simulated client takes beside the shared congestion options. */
    public static final String CLIENT_SEND = "send";

    static {
        Set<String> server = new LinkedHashSet<>();
        for (String n : SimOptions.HOST) {
            server.add(n.substring(2));
        }
        for (String n : SimOptions.QUIC) {
            server.add(n.substring(2));
        }
        for (String n : CongestionConfig.OPTION_NAMES) {
            server.add(n.substring(2));
        }
        server.add(FLOW_STARTS);
        server.remove("client-send");
        server.remove("qdisc");
        SERVER_OPTIONS = Set.copyOf(server);
    }

    private SimulatedPacelab() {}

    /** The simulator's options (with their dashes) for a server's and a client's options and the server's qdisc. */
    public static Map<String, String> options(Map<String, String> serverOptions, Map<String, String> clientOptions, String qdisc) {
        Map<String, String> m = new LinkedHashMap<>();
        serverOptions.forEach((k, v) -> {
            if (!k.equals(WARMUP)) {
                m.put("--" + k, v);
            }
        });
        if (qdisc != null && !qdisc.equals("none")) {
            m.put("--qdisc", qdisc);
        }
        String send = clientOptions.get(CLIENT_SEND);
        if (send != null) {
            m.put("--client-send", send);
        }
        return m;
    }

    /**
     * One sentence when a server's {@code flow-starts} does not give one time per flow of the scenario
     * ({@code flows}: the dual-connectivity link's, or the one pair of a single-path run), else null.
     */
    public static String flowStartsProblem(Map<String, String> serverOptions, List<String> flows) {
        String starts = serverOptions.get(FLOW_STARTS);
        if (starts == null) {
            return null;
        }
        try {
            int n = SimOptions.flowStarts(starts).size();
            if (n == flows.size()) {
                return null;
            }
            return FLOW_STARTS + ": '" + starts + "' gives " + n + (n == 1 ? " start" : " starts") + " for " + flows.size()
                    + (flows.size() == 1 ? " flow" : " flows") + " (" + String.join(", ", flows) + "); give one time per entry of "
                    + "flows, in its order (e.g. 0s,2s,2s for [dc, a, b])";
        } catch (SpecException | IllegalArgumentException e) {
            return null; // the value's own sentence comes from the option check
        }
    }

    /** One sentence when these options cannot be simulated, else null. */
    static String problem(Role role, Map<String, String> options, String qdisc) {
        for (String k : options.keySet()) {
            boolean ok = role == Role.SERVER ? SERVER_OPTIONS.contains(k) || k.equals(WARMUP)
                    : k.equals(CLIENT_SEND) || k.equals(WARMUP) || CongestionConfig.OPTION_NAMES.contains("--" + k);
            if (!ok) {
                List<String> valid = role == Role.SERVER ? SERVER_OPTIONS.stream().sorted().toList() : List.of(CLIENT_SEND,
                        "the congestion options (shared with the server)");
                return k + " is not modelled by the simulator for the " + role.word() + "; in sim mode the " + role.word()
                        + " takes " + String.join(", ", valid);
            }
        }
        if (role == Role.CLIENT) {
            return null;
        }
        Map<String, String> rest = new LinkedHashMap<>(options);
        String starts = rest.remove(FLOW_STARTS);
        try {
            if (starts != null) {
                // the count is checked against the scenario's flows by the planner (flowStartsProblem)
                SimOptions.flowStarts(starts);
            }
            SimOptions.parse(options(rest, Map.of(), qdisc), Path.of("."));
            return null;
        } catch (SpecException e) {
            String m = e.getMessage();
            return m.startsWith("--") ? m.substring(2) : m;
        } catch (IllegalArgumentException e) {
            String m = e.getMessage();
            return m.startsWith("--") ? m.substring(2) : m;
        }
    }
}
