package org.pacelab.lab.plan;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.pacelab.lab.scenario.RunOrder;
import org.pacelab.lab.scenario.Scenario;

/**
 * What a campaign will run: its configurations (each with the scenario's repetitions), the configurations left out
 * because they cannot run here, each with its reason, and what it does about the real-time host set-up.
 */
public record CampaignPlan(Scenario scenario, List<Configuration> configurations, List<Long> seeds, List<String> skipped,
                           AppliedHostSetup hostSetup) {
    public CampaignPlan {
        configurations = List.copyOf(configurations);
        seeds = List.copyOf(seeds);
        skipped = List.copyOf(skipped);
    }

    /** The same plan with only these of its configurations. */
    public CampaignPlan keeping(List<Configuration> kept) {
        return new CampaignPlan(scenario, kept, seeds, skipped, hostSetup);
    }

    /**
     * Every run in the scenario's order: configuration by configuration, each with all its repetitions
     * ({@link RunOrder#GROUPED}), or repetition by repetition, each over all configurations ({@link RunOrder#INTERLEAVED}).
     */
    public List<RunSpec> runs() {
        List<RunSpec> out = new ArrayList<>();
        for (Configuration c : configurations) {
            for (int r = 1; r <= seeds.size(); r++) {
                out.add(new RunSpec(c, r, seeds.get(r - 1)));
            }
        }
        if (scenario.order().value() == RunOrder.INTERLEAVED) {
            out.sort(Comparator.comparingInt(RunSpec::repetition)); // stable: configurations keep their order
        }
        return out;
    }
}
