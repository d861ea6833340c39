package org.pacelab.lab.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.pacelab.analysis.report.ConfigurationRuns;
import org.pacelab.analysis.report.ReportGenerator;
import org.pacelab.lab.peer.Peer;
import org.pacelab.lab.peer.PeerRegistry;
import org.pacelab.lab.store.ResultStore;
import org.pacelab.lab.store.StoreException;

/**
 * Renders the analysis report (HTML page, figures, aggregate.json) from a campaign's store: every configuration
 * of the latest plan with finished runs, in the scenario's order, titled with the scenario and what it reproduces,
 * with notes on peer versions, caveats (peers that do not pace) and configurations skipped on this host.
 */
public final class CampaignReport {
    /** Campaign record key listing the configuration ids of the latest plan (the ones a report shows). */
    public static final String PLAN_KEY = "plan.config_ids";
    /** Campaign record key with the latest plan's host set-up sentence ({@code AppliedHostSetup}). */
    public static final String HOST_SETUP_KEY = "plan.host_setup";

    private CampaignReport() {}

    /**
     * The report and the lines a terminal shows (the table is the report's).
     *
     * @param dc the dual-connectivity report ({@link DcCampaignReport#HTML}), or null when the campaign has no such runs
     */
    public record Written(ReportGenerator.Report report, String title, DcCampaignReport.Written dc) {}

    public static Written write(ResultStore store, Path outDir, PeerRegistry peers) throws StoreException, IOException {
        Map<String, String> info = store.campaignInfo();
        List<ResultStore.StoredConfiguration> configs = store.configurations();
        String plan = info.get(PLAN_KEY);
        if (plan != null && !plan.isBlank()) {
            Set<String> ids = Set.of(plan.split(","));
            configs = configs.stream().filter(c -> ids.contains(c.id())).toList();
        }
        if (configs.isEmpty()) {
            throw new StoreException(store.file() + ": no finished runs to report yet");
        }
        List<ConfigurationRuns> runs = store.reportInput(configs);
        String name = info.getOrDefault("scenario.name", "campaign");
        String reproduces = info.getOrDefault("scenario.reproduces", "");
        String title = "pacelab campaign " + name + (reproduces.isBlank() ? "" : " — " + reproduces);
        List<String> notes = new ArrayList<>();
        String hostSetup = info.get(HOST_SETUP_KEY);
        if (hostSetup != null && !hostSetup.isBlank()) {
            notes.add(Character.toUpperCase(hostSetup.charAt(0)) + hostSetup.substring(1) + ".");
        }
        String description = info.getOrDefault("scenario.description", "");
        if (!description.isBlank()) {
            notes.add(description.strip());
        }
        for (ResultStore.StoredConfiguration c : configs) {
            notes.add(c.name() + ": " + c.mode() + " mode, server " + c.serverVersion() + ", client " + c.clientVersion() + ".");
        }
        Set<String> caveats = new LinkedHashSet<>();
        for (ResultStore.StoredConfiguration c : configs) {
            for (String p : List.of(c.server(), c.client())) {
                peers.get(p).map(Peer::caveat).ifPresent(cv -> caveats.add(p + ": " + cv + "."));
            }
        }
        notes.addAll(caveats);
        String skipped = info.getOrDefault("skipped", "");
        for (String s : skipped.lines().toList()) {
            if (!s.isBlank()) {
                notes.add("Not run here — " + s);
            }
        }
        String env = info.get("environment");
        if (env != null) {
            notes.add("Environment: " + env.replaceAll("\\s+", " "));
        }
        ReportGenerator.Report report = ReportGenerator.write(outDir, title, notes, runs);
        return new Written(report, title, DcCampaignReport.writeIfAny(store, configs, outDir, title, notes));
    }
}
