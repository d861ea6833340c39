package org.pacelab.lab.plan;

import java.util.ArrayList;
import java.util.List;

import org.pacelab.lab.scenario.Scenario;

/**
 * What a campaign will run: its configurations (each with the scenario's repetitions), and the configurations
 * left out because they cannot run here, each with its reason.
 */
public record CampaignPlan(Scenario scenario, List<Configuration> configurations, List<Long> seeds, List<String> skipped) {
    public CampaignPlan {
        configurations = List.copyOf(configurations);
        seeds = List.copyOf(seeds);
        skipped = List.copyOf(skipped);
    }

    /** Every run, configuration by configuration, repetition by repetition. */
    public List<RunSpec> runs() {
        List<RunSpec> out = new ArrayList<>();
        for (Configuration c : configurations) {
            for (int r = 1; r <= seeds.size(); r++) {
                out.add(new RunSpec(c, r, seeds.get(r - 1)));
            }
        }
        return out;
    }
}
