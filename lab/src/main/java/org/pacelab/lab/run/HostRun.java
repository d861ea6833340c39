package org.pacelab.lab.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import org.pacelab.analysis.summary.SummaryJson;
import org.pacelab.lab.host.Host;
import org.pacelab.lab.peer.PacelabLauncher;
import org.pacelab.lab.plan.DcSetup;
import org.pacelab.lab.plan.RunSpec;
import org.pacelab.lab.scenario.Collect;
import org.pacelab.lab.scenario.Mode;

/**
 * One attempt of a run on this machine, into the run's directory (emptied first): simulated runs in this process,
 * relay and netns runs as processes under the supervisor; then the analysis, which leaves {@code summary.json}
 * (and the per-packet table and timeline) beside the raw files. The local executor and a Slurm array task both
 * run attempts through this class, so a run's files are the same wherever it ran.
 */
public final class HostRun {
    /** How an attempt ended: the analysed run, or the error (naming the run's directory for its logs). */
    public record Attempt(Instant startedAt, double seconds, AnalysedRun run, String error) {
        public boolean ok() {
            return run != null;
        }
    }

    private final CampaignLayout layout;
    private final SimulationBackend simulator;
    private final Collect collect;
    private final EmulatedRunExecutor emulated;
    private final DcRunExecutor dc;

    /**
     * @param host      finds the peers' programs (they start by the path found)
     * @param simulator the simulator of sim-mode runs, or null when none are planned
     */
    public HostRun(CampaignLayout layout, ProcessSupervisor supervisor, Host host, PacelabLauncher pacelab, Pki pki,
                   SimulationBackend simulator, Collect collect) {
        this.layout = layout;
        this.simulator = simulator;
        this.collect = collect;
        EmulatedRunTools tools = new EmulatedRunTools(supervisor, host, pacelab, layout.documentRoot(), pki, collect);
        this.emulated = new EmulatedRunExecutor(tools);
        this.dc = new DcRunExecutor(tools);
    }

    /** Runs one attempt; never throws for a failed run (the error is in the result). */
    public Attempt attempt(RunSpec r) throws InterruptedException {
        Path dir = layout.runDir(r);
        Instant started = Instant.now();
        long t0 = System.nanoTime();
        double loadStart = RunConditions.loadAverage();
        try {
            CampaignRunner.deleteTree(dir);
            Files.createDirectories(dir);
            AnalysedRun a = execute(r, dir);
            Mode mode = r.configuration().mode();
            RunConditions.record(a.summary(), loadStart, RunConditions.loadAverage(),
                    mode == Mode.SIM || mode == Mode.DIRECT ? null : RunFiles.log(dir, "emulator", "out"),
                    mode == Mode.SIM ? "simulated run: the link model runs in virtual time, exactly" : DirectTopology.NO_TAP);
            SummaryJson.write(a.summary(), dir.resolve(RunFiles.SUMMARY));
            return new Attempt(started, (System.nanoTime() - t0) / 1e9, a, null);
        } catch (RunFailedException | IOException e) {
            return new Attempt(started, (System.nanoTime() - t0) / 1e9, null, e.getMessage() + " (logs: " + dir + ")");
        }
    }

    private AnalysedRun execute(RunSpec r, Path dir) throws RunFailedException, InterruptedException, IOException {
        if (r.configuration().mode() == Mode.SIM) {
            return simulate(r, dir);
        }
        List<String> paths = DocumentRoot.prepare(layout.documentRoot(), r.configuration().transfer());
        return r.configuration().dc() != null ? dc.run(r, dir, paths) : emulated.run(r, dir, paths);
    }

    private AnalysedRun simulate(RunSpec r, Path dir) throws RunFailedException {
        if (simulator == null) {
            throw new IllegalStateException("sim runs were planned without a simulator");
        }
        simulator.simulate(r.configuration(), r.seed(), dir, collect);
        DcSetup setup = r.configuration().dc();
        if (setup != null) {
            // every flow of a simulation is one of its pairs; the clients' time is virtual
            return DcRunExecutor.analyze(dir, setup, setup.durationNs(), 0, description -> true);
        }
        Path clientLog = dir.resolve("client.json");
        return RunAnalysis.analyze(dir, r.key(), null, r.configuration().transfer().totalBytes(),
                Files.isRegularFile(clientLog) ? clientLog : null, -1, r.configuration().client().name(), collect,
                r.configuration().link());
    }
}
