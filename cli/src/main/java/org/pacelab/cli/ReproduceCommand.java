package org.pacelab.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import org.pacelab.lab.host.Host;
import org.pacelab.lab.peer.PacelabLauncher;
import org.pacelab.lab.peer.PeerRegistry;
import org.pacelab.lab.reproduce.ClaimRow;
import org.pacelab.lab.reproduce.PlannedCampaign;
import org.pacelab.lab.reproduce.ReferenceReader;
import org.pacelab.lab.reproduce.Reproduction;
import org.pacelab.lab.reproduce.ReproductionReport;
import org.pacelab.lab.reproduce.StudyCatalog;
import org.pacelab.lab.reproduce.StudyReference;
import org.pacelab.lab.run.PacelabSimulation;
import org.pacelab.lab.scenario.ScenarioException;
import org.pacelab.lab.scenario.ScenarioReader;
import org.pacelab.lab.store.StoreException;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code pacelab reproduce STUDY}: runs what a study needs and writes pacelab's numbers next to the published ones. */
@Command(name = "reproduce", mixinStandardHelpOptions = true,
        description = {"Reproduces a study: runs the catalog scenarios it needs (resuming, like 'pacelab run') and writes a report",
                "(Markdown and HTML) with, for every claim of the study, the published value, pacelab's mean ± std (n, mode,",
                "implementation), the difference and a verdict: reproduced, differs (with the measured reason) or cannot measure",
                "(with the reason). The published values come from the study's reference file, studies/STUDY.yaml."},
        footer = {"", "Studies: quic-steps, dual-connectivity, highway (or a path to a reference file).",
                "Results go to DIR (default results/reproduce-STUDY[-quick]): report.md, report.html and one campaign directory",
                "per scenario. Example: pacelab reproduce quic-steps --quick"})
public final class ReproduceCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "STUDY", description = "quic-steps, dual-connectivity, highway, or a reference file")
    String study;

    @Option(names = "--quick", description = "the reduced variant the reference file defines (about 10 minutes on 2 cores for quic-steps)")
    boolean quick;

    @Option(names = "--mode", paramLabel = "MODE", defaultValue = "both",
            description = "relay (emulated: relay and netns), sim (the simulator) or both (default)")
    Reproduction.Modes mode;

    @Option(names = "--campaigns", paramLabel = "LIST", split = ",",
            description = "run only these campaigns of the study (default: all); the report still includes the runs the others "
                    + "stored in the same --out, so a study can be run in slices")
    List<String> campaigns = new ArrayList<>();

    @Option(names = "--out", paramLabel = "DIR", converter = PathChecks.OutputDirectory.class,
            description = "where the campaigns and the report go")
    Path out;

    @Option(names = "--check", description = "check the reference file and the campaigns' plans; run nothing")
    boolean check;

    @Option(names = "--no-install", description = "do not install missing Debian peers (otherwise done when root)")
    boolean noInstall;

    @Option(names = "--retries", paramLabel = "N", defaultValue = "1", description = "extra attempts for a failed repetition")
    int retries;

    @Option(names = "--jobs", paramLabel = "N", description = "simulated repetitions run at once (default: number of CPUs)")
    Integer jobs;

    @Override
    public Integer call() throws Exception {
        PacelabSimulation.prepareJvm();
        PrintStream stdout = System.out;
        PrintWriter err = spec.commandLine().getErr();
        Path file;
        try {
            file = StudyCatalog.standard().find(study);
        } catch (IllegalArgumentException e) {
            err.println("pacelab reproduce: " + e.getMessage());
            return 2;
        }
        StudyReference ref;
        try {
            ref = ReferenceReader.read(file);
        } catch (ScenarioException e) {
            e.problems().forEach(p -> err.println("pacelab reproduce: " + p));
            return 2;
        }
        Host host = new Host();
        PacelabLauncher pacelab = Launchers.current();
        PeerRegistry peers = PeerRegistry.standard();
        if (!noInstall) {
            for (StudyReference.Campaign c : ref.campaigns()) {
                try {
                    RunCommand.installMissingPeers(ScenarioReader.read(c.scenario()), peers, host, pacelab, stdout);
                } catch (ScenarioException e) {
                    // reported with its location when the campaigns are planned
                }
            }
        }
        Path dir = out != null ? out : Path.of("results", "reproduce-" + ref.id() + (quick ? "-quick" : ""));
        if (jobs != null && jobs < 1) {
            throw new UserError("--jobs: must be at least 1, got " + jobs);
        }
        int parallel = jobs != null ? jobs : Runtime.getRuntime().availableProcessors();
        boolean terminal = System.console() != null && System.console().isTerminal();
        List<String> words = new ArrayList<>(List.of("pacelab", "reproduce", study));
        if (quick) {
            words.add("--quick");
        }
        words.addAll(List.of("--mode", mode.name().toLowerCase(java.util.Locale.ROOT)));
        if (!campaigns.isEmpty()) {
            words.addAll(List.of("--campaigns", String.join(",", campaigns)));
        }
        Reproduction r = new Reproduction(ref, new Reproduction.Options(quick, mode, new java.util.LinkedHashSet<>(campaigns), dir.toAbsolutePath(), Math.max(0, retries),
                parallel, stdout, terminal, String.join(" ", words)), peers, host, pacelab, RunCommand.simulator());
        if (check) {
            try {
                Map<String, PlannedCampaign> plan = r.plan();
                stdout.println(ref.id() + ": " + ref.claims().size() + " claims in " + file);
                plan.forEach((key, pc) -> stdout.println("  " + key + ": " + (pc.absent() != null ? "not run — " + pc.absent()
                        : pc.now().runs().size() + " runs (" + pc.now().configurations().size() + " of "
                        + pc.full().configurations().size() + " configurations)"
                        + (pc.deferred().isEmpty() ? "" : "; " + pc.deferred().size() + " configurations left to another invocation: "
                        + String.join("; ", new java.util.LinkedHashSet<>(pc.deferred().values()))))));
                return 0;
            } catch (ScenarioException e) {
                e.problems().forEach(p -> err.println("pacelab reproduce: " + p));
                return 2;
            }
        }
        Reproduction.Result result;
        try {
            result = r.run();
        } catch (ScenarioException e) {
            e.problems().forEach(p -> err.println("pacelab reproduce: " + p));
            return 2;
        } catch (StoreException | IOException e) {
            err.println("pacelab reproduce: " + e.getMessage());
            return 1;
        }
        stdout.println();
        ReproductionReport.terminalLines(result.rows()).forEach(stdout::println);
        Map<ClaimRow.Verdict, Integer> n = ReproductionReport.counts(result.rows());
        stdout.println();
        stdout.println(ref.id() + ": " + n.get(ClaimRow.Verdict.REPRODUCED) + " reproduced, " + n.get(ClaimRow.Verdict.DIFFERS)
                + " differ, " + n.get(ClaimRow.Verdict.CANNOT_MEASURE) + " cannot be measured here");
        stdout.println("report: " + result.markdown() + " and " + result.html());
        if (!result.failures().isEmpty()) {
            err.println("pacelab reproduce: " + result.failures().size() + " run(s) failed; run the same command again to retry them");
            return 1;
        }
        return 0;
    }
}
