package org.pacelab.lab.reproduce;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.pacelab.analysis.summary.Summary;
import org.pacelab.lab.plan.CampaignPlan;
import org.pacelab.lab.plan.Configuration;
import org.pacelab.lab.reproduce.StudyReference.Campaign;

/**
 * One campaign of a reproduction: the plan of its scenario in the chosen variant ({@code full}), the configurations
 * this reproduction runs ({@code plan}, a subset), why each other configuration is left out, and — once run — each
 * run configuration's finished repetitions.
 *
 * @param dir      the campaign directory (store, report, runs)
 * @param leftOut  configuration id → why this reproduction does not run it (--quick, --mode)
 * @param absent   why the whole campaign is not run, or null
 * @param runs     configuration id → the summaries of its finished repetitions (filled after running)
 */
public record PlannedCampaign(Campaign campaign, Path dir, CampaignPlan full, CampaignPlan plan, Map<String, String> leftOut,
                              String absent, Map<String, List<Summary>> runs) {
    public PlannedCampaign {
        leftOut = Map.copyOf(leftOut);
        runs = Map.copyOf(runs);
    }

    public PlannedCampaign withRuns(Map<String, List<Summary>> finished) {
        return new PlannedCampaign(campaign, dir, full, plan, leftOut, absent, finished);
    }

    /** Whether this reproduction runs the configuration. */
    public boolean runs(Configuration c) {
        return absent == null && plan.configurations().stream().anyMatch(x -> x.id().equals(c.id()));
    }

    /** The scenario's name (the campaign directory's name). */
    public String scenarioName() {
        return full.scenario().name();
    }
}
