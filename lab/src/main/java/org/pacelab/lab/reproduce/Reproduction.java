package org.pacelab.lab.reproduce;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.pacelab.analysis.summary.Summary;
import org.pacelab.analysis.summary.SummaryField;
import org.pacelab.lab.host.EnvironmentRecord;
import org.pacelab.lab.host.Host;
import org.pacelab.lab.host.SourceCommit;
import org.pacelab.lab.peer.PacelabLauncher;
import org.pacelab.lab.peer.PeerRegistry;
import org.pacelab.lab.plan.CampaignPlan;
import org.pacelab.lab.plan.CampaignPlanner;
import org.pacelab.lab.plan.Configuration;
import org.pacelab.lab.plan.PlanningContext;
import org.pacelab.lab.report.CampaignReport;
import org.pacelab.lab.reproduce.StudyReference.Campaign;
import org.pacelab.lab.reproduce.StudyReference.Variant;
import org.pacelab.lab.run.CampaignLayout;
import org.pacelab.lab.run.CampaignRunner;
import org.pacelab.lab.run.SimulationBackend;
import org.pacelab.lab.scenario.Mode;
import org.pacelab.lab.scenario.Scenario;
import org.pacelab.lab.scenario.ScenarioException;
import org.pacelab.lab.scenario.ScenarioOverrides;
import org.pacelab.lab.scenario.ScenarioReader;
import org.pacelab.lab.store.ResultStore;
import org.pacelab.lab.store.StoreException;

/**
 * {@code pacelab reproduce STUDY}: plans the catalog scenarios a study's reference file names (in its full or its
 * {@code --quick} variant, in the chosen modes), checks every claim against those plans before anything runs, runs
 * the campaigns through the ordinary runner (so an interrupted reproduction resumes where it stopped, and finished
 * runs of unchanged configurations are reused), and writes the reproduction report beside the campaigns.
 */
public final class Reproduction {
    /** Which modes a reproduction runs: the emulated ones (relay and netns), the simulator, or both. */
    public enum Modes {
        RELAY, SIM, BOTH;

        boolean keeps(Mode m) {
            return this == BOTH || (this == SIM) == (m == Mode.SIM);
        }

        String word() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * @param command the command line, as the report quotes it
     * @param jobs    simulated repetitions run at once
     */
    /**
     * @param campaigns the campaign keys this invocation runs (empty: all); the others' stored runs are still reported
     */
    public record Options(boolean quick, Modes modes, Set<String> campaigns, Path out, int retries, int jobs, PrintStream log,
                          boolean terminal, String command) {
        public Options {
            campaigns = Set.copyOf(campaigns);
        }
    }

    /** What a reproduction wrote and found. */
    public record Result(Path markdown, Path html, List<ClaimRow> rows, List<String> failures) {}

    private final StudyReference ref;
    private final Options options;
    private final PeerRegistry peers;
    private final Host host;
    private final PacelabLauncher pacelab;
    private final SimulationBackend simulator;

    public Reproduction(StudyReference ref, Options options, PeerRegistry peers, Host host, PacelabLauncher pacelab,
                        SimulationBackend simulator) {
        this.ref = ref;
        this.options = options;
        this.peers = peers;
        this.host = host;
        this.pacelab = pacelab;
        this.simulator = simulator;
    }

    /** Plans every campaign and checks the claims against the plans; nothing runs. */
    public Map<String, PlannedCampaign> plan() throws ScenarioException {
        Map<String, PlannedCampaign> out = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        List<String> keys = ref.campaigns().stream().map(Campaign::key).toList();
        for (String k : options.campaigns()) {
            if (!keys.contains(k)) {
                problems.add(ref.file() + ": --campaigns: '" + k + "' is not a campaign of " + ref.id() + "; its campaigns: "
                        + String.join(", ", keys));
            }
        }
        if (!problems.isEmpty()) {
            throw new ScenarioException(problems);
        }
        for (Campaign c : ref.campaigns()) {
            try {
                out.put(c.key(), plan(c));
            } catch (ScenarioException e) {
                problems.addAll(e.problems());
            }
        }
        if (problems.isEmpty()) {
            problems.addAll(new ClaimEvaluator(out, peers).check(ref.claims()));
        }
        if (!problems.isEmpty()) {
            throw new ScenarioException(problems);
        }
        return out;
    }

    private PlannedCampaign plan(Campaign c) throws ScenarioException {
        Variant v = options.quick() ? c.quick() : c.full();
        Scenario s = ScenarioOverrides.skippingUnavailable(ScenarioReader.read(c.scenario()));
        Variant sizes = v == null ? Variant.NONE : v;
        if (sizes.repetitions() > 0) {
            s = ScenarioOverrides.withRepetitions(s, sizes.repetitions());
        }
        if (sizes.size() > 0) {
            s = ScenarioOverrides.withSize(s, sizes.size());
        }
        CampaignPlan full = CampaignPlanner.plan(s, new PlanningContext(peers.with(s.peers()), host, pacelab, null, true,
                c.scenario().getParent()));
        Path dir = options.out().resolve(s.name());
        if (v == null) {
            return new PlannedCampaign(c, dir, full, full, Map.of(), "--quick leaves campaign " + c.key() + " ("
                    + s.name() + ") out; run without --quick", Map.of());
        }
        List<Configuration> kept = new ArrayList<>();
        List<Configuration> now = new ArrayList<>();
        Map<String, String> leftOut = new LinkedHashMap<>();
        Map<String, String> deferred = new LinkedHashMap<>();
        for (Configuration x : full.configurations()) {
            String why = leftOutBecause(v, x);
            if (why != null) {
                leftOut.put(x.id(), why);
                continue;
            }
            kept.add(x);
            String later = deferredBecause(c, x);
            if (later == null) {
                now.add(x);
            } else {
                deferred.put(x.id(), later);
            }
        }
        return new PlannedCampaign(c, dir, full, full.keeping(kept), full.keeping(now), leftOut, deferred, null, Map.of());
    }

    /** Why this invocation leaves a configuration of the variant to another one (--mode, --campaigns), or null. */
    private String deferredBecause(Campaign c, Configuration x) {
        if (!options.campaigns().isEmpty() && !options.campaigns().contains(c.key())) {
            return "--campaigns " + String.join(",", new java.util.TreeSet<>(options.campaigns())) + " leaves campaign " + c.key() + " out";
        }
        if (!options.modes().keeps(x.mode())) {
            return "--mode " + options.modes().word() + " leaves " + x.mode().word() + " mode out";
        }
        return null;
    }

    private String leftOutBecause(Variant v, Configuration x) {
        String variant = options.quick() ? "--quick" : "the full reproduction";
        if (!v.only().isEmpty() && !v.only().contains(x.implementation())) {
            return variant + " runs only " + String.join(", ", v.only()) + " of this campaign";
        }
        if (!v.modes().isEmpty() && !v.modes().contains(x.mode().word())) {
            return variant + " runs this campaign in " + String.join(", ", v.modes()) + " mode only";
        }
        for (Map.Entry<String, List<String>> e : v.sweep().entrySet()) {
            String value = x.sweepPoint().get(e.getKey());
            if (value != null && !e.getValue().contains(value)) {
                return variant + " runs only " + e.getKey() + " " + String.join(", ", e.getValue()) + " of this campaign";
            }
        }
        return null;
    }

    /** Plans, runs every campaign (resuming), evaluates the claims and writes the report. */
    public Result run() throws ScenarioException, IOException, StoreException, InterruptedException {
        Map<String, PlannedCampaign> planned = plan();
        PrintStream log = options.log();
        int runs = 0;
        for (PlannedCampaign pc : planned.values()) {
            if (pc.absent() == null) {
                runs += pc.now().runs().size();
            }
        }
        log.println("reproducing " + ref.id() + (options.quick() ? " (--quick)" : "") + ", modes " + options.modes().word() + ": "
                + planned.size() + " campaigns, " + runs + " runs; results in " + options.out());
        List<String> failures = new ArrayList<>();
        Map<String, PlannedCampaign> done = new LinkedHashMap<>();
        List<String> campaignLines = new ArrayList<>();
        int finishedNow = 0;
        int reported = 0;
        for (Map.Entry<String, PlannedCampaign> e : planned.entrySet()) {
            PlannedCampaign pc = e.getValue();
            if (pc.absent() != null || pc.plan().configurations().isEmpty()) {
                String why = pc.absent() != null ? pc.absent() : "no configuration of it runs here (" + String.join("; ", reasons(pc)) + ")";
                campaignLines.add(e.getKey() + " (" + pc.scenarioName() + "): not run — " + why);
                done.put(e.getKey(), pc);
                continue;
            }
            CampaignLayout layout = new CampaignLayout(pc.dir());
            int finished = 0;
            int plannedRuns = pc.plan().runs().size();
            if (!pc.now().configurations().isEmpty()) {
                log.println();
                log.println("campaign " + e.getKey() + ": " + pc.campaign().scenario().getFileName() + " → " + pc.dir());
                CampaignRunner.Result r = new CampaignRunner(pc.now(), layout, pacelab, host, simulator,
                        new CampaignRunner.Settings(options.retries(), options.jobs(), log, options.terminal())).run();
                failures.addAll(r.failures());
                finishedNow += r.finishedNow();
            }
            Map<String, List<Summary>> summaries = new LinkedHashMap<>();
            if (!Files.exists(layout.store())) {
                done.put(e.getKey(), pc);
                campaignLines.add(e.getKey() + " (" + pc.campaign().scenario().getFileName() + "): not run yet — "
                        + String.join("; ", new LinkedHashSet<>(pc.deferred().values())));
                continue;
            }
            try (ResultStore store = ResultStore.openExisting(layout.store())) {
                for (ResultStore.StoredConfiguration sc : store.configurations()) {
                    if (pc.plan().configurations().stream().anyMatch(x -> x.id().equals(sc.id()))) {
                        List<Summary> list = new ArrayList<>();
                        for (String key : sc.runKeys()) {
                            list.add(store.summary(key));
                        }
                        summaries.put(sc.id(), list);
                        finished += list.size();
                    }
                }
                reported += finished;
                if (finished > 0) {
                    CampaignReport.write(store, layout.report(), peers);
                }
            }
            done.put(e.getKey(), pc.withRuns(summaries));
            campaignLines.add(e.getKey() + " (" + pc.campaign().scenario().getFileName() + "): " + pc.plan().configurations().size()
                    + " of " + pc.full().configurations().size() + " configurations × " + pc.plan().seeds().size() + " repetitions, "
                    + finished + " of " + plannedRuns + " runs finished; report "
                    + options.out().relativize(layout.report().resolve("index.html"))
                    + (pc.leftOut().isEmpty() && pc.full().skipped().isEmpty() ? "" : "; " + String.join("; ", reasons(pc))));
        }
        ClaimEvaluator evaluator = new ClaimEvaluator(done, peers);
        List<ClaimRow> rows = new ArrayList<>();
        for (StudyReference.Claim c : ref.claims()) {
            rows.addAll(evaluator.evaluate(c));
        }
        ReproductionReport.Context ctx = new ReproductionReport.Context(options.command(),
                header(done, finishedNow, Math.max(0, reported - finishedNow), failures), campaignLines);
        ReproductionReport.write(options.out(), ref, rows, ctx);
        return new Result(options.out().resolve(ReproductionReport.MARKDOWN), options.out().resolve(ReproductionReport.HTML), rows,
                failures);
    }

    /** Why configurations of a campaign are not in this reproduction (left out, or not runnable here), each once. */
    private static List<String> reasons(PlannedCampaign pc) {
        Map<String, List<String>> byReason = new LinkedHashMap<>();
        for (Configuration x : pc.full().configurations()) {
            String why = pc.leftOut().get(x.id());
            if (why != null) {
                byReason.computeIfAbsent(why, k -> new ArrayList<>()).add(x.name());
            }
        }
        List<String> out = new ArrayList<>();
        byReason.forEach((why, names) -> out.add(why + ": " + String.join(", ", names)));
        pc.full().skipped().forEach(s -> out.add("not runnable here: " + s));
        return out;
    }

    private List<String> header(Map<String, PlannedCampaign> done, int now, int before, List<String> failures) {
        List<String> h = new ArrayList<>();
        Map<String, String> env = EnvironmentRecord.collect(host);
        h.add("Date: " + Instant.now().truncatedTo(ChronoUnit.SECONDS) + "; pacelab built from commit "
                + SourceCommit.ofThisBuild());
        h.add("Machine: " + env.get("os") + ", Linux " + env.get("kernel") + ", " + env.get("cpus") + " × " + env.get("cpu") + ", "
                + env.get("memory") + " memory, " + env.get("jdk") + "; root: " + env.get("root"));
        Set<String> setups = new LinkedHashSet<>();
        done.values().forEach(pc -> setups.add(pc.plan().hostSetup().summary()));
        setups.forEach(x -> h.add(Character.toUpperCase(x.charAt(0)) + x.substring(1)));
        h.add("Variant: " + (options.quick() ? "--quick (fewer repetitions and configurations; see Campaigns)" : "full")
                + "; modes: " + options.modes().word());
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        int emulated = 0;
        for (PlannedCampaign pc : done.values()) {
            for (List<Summary> list : pc.runs().values()) {
                for (Summary s : list) {
                    if (s.has(SummaryField.HOST_LOAD_START)) {
                        lo = Math.min(lo, s.number(SummaryField.HOST_LOAD_START));
                        hi = Math.max(hi, s.number(SummaryField.HOST_LOAD_START));
                    }
                    if (s.has(SummaryField.EMULATOR_LATENESS_P99_US)) {
                        emulated++;
                    }
                }
            }
        }
        h.add("Runs: " + now + " finished by this invocation, " + before + " stored by earlier ones"
                + (failures.isEmpty() ? "" : ", " + failures.size() + " failed (run the same command again to retry them)")
                + (lo <= hi ? "; 1-minute load average at the runs' start " + Numbers.format(lo) + "–" + Numbers.format(hi) : "")
                + (emulated > 0 ? "; each emulated row names its runs' load and emulator lateness" : ""));
        return h;
    }
}
