package org.pacelab.lab.run;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.pacelab.lab.plan.Configuration;
import org.pacelab.lab.scenario.Collect;
import org.pacelab.net.driver.WarmUp;

/** The link options {@code pacelab emulate} and {@code pacelab netns up} share, for one run. */
final class EmulatorArguments {
    private EmulatorArguments() {}

    static List<String> of(Configuration c, long seed, Path dir, Collect collect) {
        List<String> a = new ArrayList<>();
        if (c.dc() != null) {
            a.addAll(c.dc().emulatorArguments()); // the two paths replace --preset and --down; the event log is required
        } else {
            a.addAll(List.of("--preset", c.preset()));
            if (!c.linkDown().isEmpty()) {
                a.addAll(List.of("--down", c.linkDown()));
            }
        }
        if (!c.linkUp().isEmpty()) {
            a.addAll(List.of("--up", c.linkUp()));
        }
        a.addAll(List.of("--seed", Long.toString(seed)));
        if (c.realtimeEmulator()) {
            a.add("--realtime");
        }
        // explicit either way, so the command line in the run's logs says it
        a.addAll(List.of("--warmup", WarmUp.word(c.emulatorWarmUp())));
        if (collect.tap()) {
            a.addAll(List.of("--tap", dir.resolve(RunFiles.TAP).toString()));
        }
        if (collect.events() || c.dc() != null) {
            a.addAll(List.of("--log", dir.resolve(RunFiles.EVENTS).toString()));
        }
        return a;
    }
}
