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
 * the reproduction reports ({@code plan}, a subset), those of them this invocation runs ({@code now}: {@code --mode}
 * and {@code --campaigns} may defer the others to another invocation into the same directory, whose stored runs are
 * reported all the same), why each other configuration is left out, and — once run — each reported configuration's
 * finished repetitions.
 *
 * @param dir      the campaign directory (store, report, runs)
 * @param leftOut  configuration id → why the reproduction does not report it (the variant: --quick or full)
 * @param deferred configuration id → why this invocation does not run it (--mode, --campaigns), for those in plan
 * @param absent   why the whole campaign is not run, or null
 * @param runs     configuration id → the summaries of its finished repetitions (filled after running)
 */
public record PlannedCampaign(Campaign campaign, Path dir, CampaignPlan full, CampaignPlan plan, CampaignPlan now,
                              Map<String, String> leftOut, Map<String, String> deferred, String absent,
                              Map<String, List<Summary>> runs) {
    public PlannedCampaign {
        leftOut = Map.copyOf(leftOut);
        deferred = Map.copyOf(deferred);
        runs = Map.copyOf(runs);
    }

    /** A campaign whose every reported configuration runs in this invocation. */
    public PlannedCampaign(Campaign campaign, Path dir, CampaignPlan full, CampaignPlan plan, Map<String, String> leftOut,
                           String absent, Map<String, List<Summary>> runs) {
        this(campaign, dir, full, plan, plan, leftOut, Map.of(), absent, runs);
    }

    public PlannedCampaign withRuns(Map<String, List<Summary>> finished) {
        return new PlannedCampaign(campaign, dir, full, plan, now, leftOut, deferred, absent, finished);
    }

    /** Why a reported configuration has no run yet when this invocation deferred it, or null. */
    public String notRunYet(Configuration c) {
        String why = deferred.get(c.id());
        return why == null || !runs.getOrDefault(c.id(), List.of()).isEmpty() ? null
                : "not run yet: " + why + "; run the command with it into the same --out to add it";
    }

    /** Whether the reproduction reports the configuration (runs it now or reads its runs stored by another invocation). */
    public boolean runs(Configuration c) {
        return absent == null && plan.configurations().stream().anyMatch(x -> x.id().equals(c.id()));
    }

    /** The scenario's name (the campaign directory's name). */
    public String scenarioName() {
        return full.scenario().name();
    }
}
