package org.pacelab.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;

import org.pacelab.analysis.report.ReportTable;
import org.pacelab.lab.host.Host;
import org.pacelab.lab.peer.PacelabLauncher;
import org.pacelab.lab.peer.Peer;
import org.pacelab.lab.peer.PeerInstaller;
import org.pacelab.lab.peer.PeerRegistry;
import org.pacelab.lab.plan.CampaignPlan;
import org.pacelab.lab.plan.CampaignPlanner;
import org.pacelab.lab.plan.Configuration;
import org.pacelab.lab.plan.PlanningContext;
import org.pacelab.lab.report.CampaignReport;
import org.pacelab.lab.run.CampaignLayout;
import org.pacelab.lab.run.CampaignRunner;
import org.pacelab.lab.run.PacelabSimulation;
import org.pacelab.lab.run.RunExecutor;
import org.pacelab.lab.run.SimulationBackend;
import org.pacelab.lab.scenario.Implementation;
import org.pacelab.lab.scenario.Scenario;
import org.pacelab.lab.scenario.ScenarioException;
import org.pacelab.lab.scenario.ScenarioReader;
import org.pacelab.lab.scenario.RunOrder;
import org.pacelab.lab.scenario.ScenarioRecipe;
import org.pacelab.lab.slurm.SlurmCluster;
import org.pacelab.lab.slurm.SlurmException;
import org.pacelab.lab.slurm.SlurmExecutor;
import org.pacelab.lab.slurm.SlurmSettings;
import org.pacelab.lab.store.ResultStore;
import org.pacelab.lab.store.StoreException;
import org.pacelab.peers.build.PeerBuilder;
import org.pacelab.peers.build.PeerCache;
import org.pacelab.peers.build.PeerSources;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code pacelab run SCENARIO}: runs a campaign, resumably, and ends with a table and an HTML report. */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = {"Runs the campaign a scenario file describes: every implementation x sweep point x repetition,",
                "emulator, server and client as separate processes (or the simulator), results in one DuckDB file.",
                "Checks the whole scenario before anything starts. Interrupted? Run the same command again: finished",
                "repetitions are kept and not redone. Ends with the summary table and an HTML report."},
        footer = {"", "Results go to DIR (default results/<scenario name>): campaign.duckdb, report/index.html, runs/, environment.json.",
                "With --executor slurm the runs execute as Slurm job arrays; DIR must be on a filesystem every node mounts,",
                "and every node needs the same pacelab build (see lab/README.md, 'Running on a Slurm cluster').",
                "Example: pacelab run scenarios/quickstart.yaml"})
public final class RunCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(converter = PathChecks.InputFile.class, paramLabel = "SCENARIO", description = "scenario file (YAML), e.g. scenarios/quickstart.yaml")
    Path scenarioFile;

    @Option(names = "--out", converter = PathChecks.OutputDirectory.class, paramLabel = "DIR", description = "campaign directory (default: results/<scenario name>)")
    Path out;

    @Option(names = "--repetitions", paramLabel = "N", description = "override the scenario's repetitions")
    Integer repetitions;

    @Option(names = "--size", paramLabel = "SIZE", converter = UnitConverters.Size.class,
            description = "override the transfer size per stream, e.g. 5MiB")
    Long size;

    @Option(names = "--only", split = ",", paramLabel = "NAME", description = "run only these implementations of the scenario")
    List<String> only;

    @Option(names = "--order", paramLabel = "ORDER", description = "the order of the runs: grouped (every repetition of one "
            + "configuration, then the next; the default) or interleaved (repetition 1 of every configuration, then repetition "
            + "2, ...: configurations compared in real time share the host's drift); overrides the scenario's order:")
    String order;

    @Option(names = "--check", description = "check the scenario against this host and print the plan; run nothing")
    boolean check;

    @Option(names = "--quick", description = "run the scenario's quick subset (its quick: section replaces those keys; "
            + "results in results/<name>-quick)")
    boolean quick;

    @Option(names = "--no-install", description = "do not install missing Debian peers (otherwise done when root)")
    boolean noInstall;

    @Option(names = "--retries", paramLabel = "N", defaultValue = "1",
            description = "extra attempts for a failed repetition (default: ${DEFAULT-VALUE})")
    int retries;

    @Option(names = "--jobs", paramLabel = "N", description = "simulated repetitions run at once (default: number of CPUs; "
            + "with --executor slurm: CPUs per array task, default the partition's smallest node's, at most 4)")
    Integer jobs;

    @Option(names = "--no-report", description = "do not render the HTML report at the end")
    boolean noReport;

    /** Where the runs execute. */
    enum Executor { local, slurm }

    @Option(names = "--executor", paramLabel = "WHERE", defaultValue = "local",
            description = "where the runs execute: local (this machine, the default) or slurm (job arrays on the Slurm cluster "
                    + "SLURM_CONF names; simulated runs packed several to a task with --jobs CPUs, relay and netns runs one to a "
                    + "whole node)")
    Executor executor;

    @Option(names = "--partition", paramLabel = "P", description = "Slurm partition (default: the cluster's default partition)")
    String partition;

    @Option(names = "--slurm-option", paramLabel = "OPT",
            description = "an extra sbatch option for every job array, as one word, e.g. --slurm-option=--time=02:00:00 "
                    + "(repeatable)")
    List<String> slurmOptions;

    @Option(names = "--runs-per-task", paramLabel = "N",
            description = "simulated runs packed into one Slurm array task (default: twice its CPUs)")
    Integer runsPerTask;

    /** The simulator that runs sim-mode configurations. */
    static SimulationBackend simulator() {
        return new PacelabSimulation();
    }

    @Override
    public Integer call() throws Exception {
        // before anything in this JVM creates a SecureRandom: simulated runs draw their TLS randomness from their seed
        PacelabSimulation.prepareJvm();
        return runCampaign();
    }

    private Integer runCampaign() throws Exception {
        PrintStream stdout = System.out;
        PrintWriter err = spec.commandLine().getErr();
        if (executor != Executor.slurm && (partition != null || slurmOptions != null || runsPerTask != null)) {
            err.println("pacelab run: --partition, --slurm-option and --runs-per-task go with --executor slurm; add it, or leave them out");
            return 2;
        }
        if (jobs != null && jobs < 1) {
            err.println("pacelab run: --jobs: must be at least 1, got " + jobs);
            return 2;
        }
        RunOrder runOrder = null;
        if (order != null) {
            runOrder = RunOrder.parse(order);
            if (runOrder == null) {
                err.println("pacelab run: " + RunOrder.invalid("--order", order));
                return 2;
            }
        }
        Scenario scenario;
        ScenarioRecipe recipe;
        try {
            Scenario read = ScenarioReader.read(scenarioFile, quick);
            recipe = new ScenarioRecipe(read.source(), read.text(), scenarioFile.toAbsolutePath().getParent(), repetitions, size, only,
                    quick, runOrder);
            scenario = recipe.apply(read);
        } catch (ScenarioException e) {
            e.problems().forEach(p -> err.println("pacelab run: " + p));
            return 2;
        }
        Host host = new Host();
        PacelabLauncher pacelab = Launchers.current();
        PeerRegistry peers;
        try {
            peers = PeerRegistry.forScenario(scenario);
        } catch (ScenarioException e) {
            e.problems().forEach(p -> err.println("pacelab run: " + p));
            return 2;
        }
        if (!noInstall) {
            installMissingPeers(scenario, peers, host, pacelab, stdout);
        }
        SimulationBackend sim = simulator();
        CampaignPlan plan;
        try {
            plan = CampaignPlanner.plan(scenario, new PlanningContext(peers, host, pacelab, null, scenario.skipUnavailable(),
                    recipe.baseDir()));
        } catch (ScenarioException e) {
            e.problems().forEach(p -> err.println("pacelab run: " + p));
            return 2;
        }
        Path dir = out != null ? out : Path.of("results", scenario.name());
        CampaignLayout layout = new CampaignLayout(dir);
        printPlan(plan, layout, stdout);
        int parallel = jobs != null ? jobs : Runtime.getRuntime().availableProcessors();
        RunExecutor runs = null;
        if (executor == Executor.slurm) {
            try {
                SlurmExecutor slurm = SlurmExecutor.prepare(SlurmCluster.find(host),
                        new SlurmSettings(partition, slurmOptions, jobs, runsPerTask), recipe, layout, pacelab);
                stdout.println(slurm.describe());
                runs = slurm;
            } catch (SlurmException e) {
                err.println("pacelab run: " + e.getMessage());
                return 2;
            }
        }
        if (check) {
            return 0;
        }
        boolean terminal = System.console() != null && System.console().isTerminal();
        CampaignRunner.Result result;
        try {
            CampaignRunner.Settings settings = new CampaignRunner.Settings(Math.max(0, retries), parallel, stdout, terminal);
            CampaignRunner runner = runs == null ? new CampaignRunner(plan, layout, pacelab, host, sim, settings)
                    : new CampaignRunner(plan, layout, pacelab, host, settings, runs);
            result = runner.run();
        } catch (StoreException | IOException e) {
            err.println("pacelab run: " + e.getMessage());
            return 1;
        }
        stdout.println();
        stdout.println("campaign " + scenario.name() + ": " + (result.finishedBefore() + result.finishedNow()) + " of "
                + result.planned() + " runs finished (" + result.finishedNow() + " in this session)");
        if (!noReport && result.finishedBefore() + result.finishedNow() > 0) {
            try (ResultStore store = ResultStore.openExisting(layout.store())) {
                CampaignReport.Written w = CampaignReport.write(store, layout.report(), peers);
                stdout.println();
                stdout.println(plan.hostSetup().summary());
                stdout.print(ReportTable.text(w.report().aggregates()));
                stdout.println();
                stdout.println("report: " + w.report().html());
                if (w.dc() != null) {
                    stdout.print(w.dc().text());
                    stdout.println("dual-connectivity report: " + w.dc().html());
                }
                w.report().figuresNotDrawn().forEach((name, why) -> stdout.println("figure " + name + " not drawn: " + why));
            } catch (StoreException | IOException e) {
                err.println("pacelab run: the report could not be written: " + e.getMessage());
                return 1;
            }
        }
        stdout.println("results: " + layout.root() + " (store " + layout.store().getFileName()
                + "; 'pacelab report --campaign " + layout.root() + " --export csv' writes CSV tables)");
        if (!result.skipped().isEmpty()) {
            stdout.println("not run on this host:");
            result.skipped().forEach(s -> stdout.println("  " + s));
        }
        if (!result.failures().isEmpty()) {
            err.println("pacelab run: " + result.failures().size() + " run(s) did not finish (failed or cancelled); run the same "
                    + "command again to run them:");
            result.failures().forEach(f -> err.println("  " + f));
            return 1;
        }
        return 0;
    }

    private static void printPlan(CampaignPlan plan, CampaignLayout layout, PrintStream out) {
        Scenario s = plan.scenario();
        out.println("scenario " + s.name() + (s.reproduces().isBlank() ? "" : " — reproduces " + s.reproduces()));
        out.println(plan.configurations().size() + " configuration(s) x " + plan.seeds().size() + " repetition(s) = "
                + plan.runs().size() + " runs" + (s.order().value() == RunOrder.INTERLEAVED ? ", interleaved (repetition by repetition)" : "")
                + "; results in " + layout.root());
        for (Configuration c : plan.configurations()) {
            out.println("  " + c.name() + ": " + c.mode().word() + ", server " + c.server().name() + opts(c.serverOptions())
                    + ", client " + c.client().name() + opts(c.clientOptions()) + (c.qdisc().equals("none") ? "" : ", qdisc " + c.qdisc())
                    + ", " + c.transfer().totalBytes() + " bytes, link " + c.preset()
                    + (c.linkDown().isEmpty() ? "" : " down[" + c.linkDown() + "]") + (c.linkUp().isEmpty() ? "" : " up[" + c.linkUp() + "]"));
        }
        for (String sk : plan.skipped()) {
            out.println("  " + sk);
        }
        out.println(plan.hostSetup().summary());
    }

    private static String opts(java.util.Map<String, String> o) {
        return o.isEmpty() ? "" : " " + o;
    }

    /**
     * Installs what the peers the scenario names lack, before the plan is made: their Debian packages and the
     * report's fonts (root only), and the builds of peers pacelab builds (sources from PACELAB_PEER_SOURCES or
     * upstream). The plan is then made from what is installed.
     */
    static void installMissingPeers(Scenario scenario, PeerRegistry peers, Host host, PacelabLauncher pacelab, PrintStream out) {
        Set<Peer> named = new LinkedHashSet<>();
        for (Implementation i : scenario.implementations()) {
            peers.get(i.server().value()).ifPresent(named::add);
            peers.get(i.client().value()).ifPresent(named::add);
        }
        PeerBuilder builder = new PeerBuilder(PeerCache.standard(), PeerSources.of(List.of(), System.getenv(), host.programs()),
                host.programs(), out);
        PeerInstaller installer = new PeerInstaller(host, pacelab, PeerInstaller.APT, builder);
        // the report's figures are drawn by JFreeChart, which needs fontconfig and a font on a headless JDK
        Set<String> fonts = host.which("dpkg-query").isPresent() ? Set.of("fontconfig", "fonts-dejavu-core") : Set.of();
        PeerInstaller.Result r = installer.install(new ArrayList<>(named), fonts, PeerInstaller.Builds.ALL, out);
        // packages that could not be installed (not root) are not news: the plan lists what cannot run here, and why
        r.problems().forEach(p -> out.println("pacelab run: " + p));
    }
}
