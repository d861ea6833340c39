package org.pacelab.lab.run;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.pacelab.lab.peer.SimulatedPacelab;
import org.pacelab.lab.plan.Configuration;
import org.pacelab.lab.plan.DcSetup;
import org.pacelab.lab.scenario.Collect;
import org.pacelab.net.dc.DcFlowMode;
import org.pacelab.sim.SimOptions;
import org.pacelab.sim.SimResult;
import org.pacelab.sim.SimScenario;
import org.pacelab.sim.Simulation;

/**
 * Sim mode: pacelab's stack in the virtual-time simulator ({@link Simulation}), in this process, with the
 * configuration's link, transfer, options and seed. The simulator writes the run's files under the names an
 * emulated run uses; the runner analyses them the same way. A dual-connectivity configuration gets the options the
 * relay gets ({@code --dc}, {@code --path-a}, {@code --path-b}, {@code --up}, read by the same parser) and its
 * client/server pairs ({@code --flows}) and duration; its tap and server qlogs are written only when the scenario
 * collects them (its analysis reads the event log).
 */
public final class PacelabSimulation implements SimulationBackend {
    /**
     * Makes the JDK's SecureRandom draw from the simulation's seeded streams on simulation threads; must run before
     * this JVM does any TLS (the runner calls it first thing).
     */
    public static void prepareJvm() {
        Simulation.prepareJvm();
    }

    @Override
    public void simulate(Configuration c, long seed, Path dir, Collect collect) throws RunFailedException {
        SimScenario scenario;
        try {
            scenario = SimOptions.parse(options(c, seed, collect), dir);
        } catch (IllegalArgumentException e) {
            throw new RunFailedException("the simulator refused the configuration: " + e.getMessage(), e);
        }
        SimResult r;
        try {
            r = Simulation.run(scenario);
        } catch (IOException | RuntimeException e) {
            throw new RunFailedException("the simulation failed: " + e.getMessage(), e);
        }
        if (!r.completed()) {
            throw new RunFailedException("the simulated download did not finish: " + r.outcome());
        }
    }

    /** The simulator's options for one repetition (the runner analyses the outputs itself). */
    public static Map<String, String> options(Configuration c, long seed, Collect collect) {
        Map<String, String> m = new LinkedHashMap<>();
        DcSetup dc = c.dc();
        if (dc != null) {
            List<String> link = dc.emulatorArguments();
            for (int i = 0; i + 1 < link.size(); i += 2) {
                m.put(link.get(i), link.get(i + 1));
            }
            m.put("--flows", String.join(",", dc.flows().stream().map(DcFlowMode::label).toList()));
            if (dc.durationNs() > 0) {
                m.put("--duration", dc.durationNs() / 1_000_000 + "ms");
            }
            m.put("--tap", collect.tap() ? "on" : "off");
            m.put("--qlog", collect.qlog() ? "on" : "off");
        } else {
            m.put("--preset", c.preset());
            if (!c.linkDown().isEmpty()) {
                m.put("--down", c.linkDown());
            }
        }
        if (!c.linkUp().isEmpty()) {
            m.put("--up", c.linkUp());
        }
        m.put("--seed", Long.toString(seed));
        m.put("--size", c.transfer().bytesPerStream() + "b");
        m.put("--streams", Integer.toString(c.transfer().streams()));
        m.put("--timeout", c.timeoutNs() / 1_000_000 + "ms");
        m.put("--analyze", "off");
        m.putAll(SimulatedPacelab.options(c.serverOptions(), c.clientOptions(), c.qdisc()));
        return m;
    }
}
