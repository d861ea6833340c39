package org.pacelab.lab.run;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.pacelab.lab.peer.SimulatedPacelab;
import org.pacelab.lab.plan.Configuration;
import org.pacelab.lab.scenario.Collect;
import org.pacelab.sim.SimOptions;
import org.pacelab.sim.SimResult;
import org.pacelab.sim.SimScenario;
import org.pacelab.sim.Simulation;

/**
 * Sim mode: pacelab's stack in the virtual-time simulator ({@link Simulation}), in this process, with the
 * configuration's link, transfer, options and seed. The simulator writes the run's files under the names an
 * emulated run uses; the runner analyses them the same way.
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
            scenario = SimOptions.parse(options(c, seed), dir);
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
    static Map<String, String> options(Configuration c, long seed) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("--preset", c.preset());
        if (!c.linkDown().isEmpty()) {
            m.put("--down", c.linkDown());
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
