package org.pacelab.lab.run;

import java.nio.file.Path;

import org.pacelab.lab.plan.Configuration;
import org.pacelab.lab.scenario.Collect;

/**
 * Runs one repetition of a configuration in the virtual-time simulator, in this process, leaving in {@code dir} the
 * files an emulated run leaves ({@code tap.pcapng}, {@code events.bin}, {@code keys.log}, {@code qlog/},
 * {@code client.json}) so that the same analysis applies. Must be safe to call from several threads at once
 * (sim-mode repetitions run in parallel).
 */
public interface SimulationBackend {
    void simulate(Configuration configuration, long seed, Path dir, Collect collect) throws RunFailedException;
}
