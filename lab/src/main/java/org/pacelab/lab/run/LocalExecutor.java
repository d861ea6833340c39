package org.pacelab.lab.run;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.pacelab.lab.host.Host;
import org.pacelab.lab.peer.PacelabLauncher;
import org.pacelab.lab.plan.RunSpec;
import org.pacelab.lab.scenario.Collect;
import org.pacelab.lab.scenario.Mode;
import org.pacelab.lab.store.StoreException;
import org.pacelab.net.netns.NetnsException;
import org.pacelab.net.netns.NetnsLab;

/**
 * Runs a campaign on this machine: simulated runs in parallel ({@code jobs} at once), relay and netns runs one at a
 * time so they do not disturb each other's timing. Processes left by a runner that was killed are stopped first;
 * Ctrl-C stops every process (and namespace) of the runs in flight.
 */
public final class LocalExecutor implements RunExecutor {
    private final CampaignLayout layout;
    private final PacelabLauncher pacelab;
    private final Host host;
    private final SimulationBackend simulator;
    private final int jobs;
    private final Collect collect;
    private final ProcessSupervisor supervisor;
    private final RunSpace.FreeSpace freeSpace;

    /** @param simulator the simulator of sim-mode runs, or null when the plan has none */
    public LocalExecutor(CampaignLayout layout, PacelabLauncher pacelab, Host host, SimulationBackend simulator, int jobs,
                         Collect collect) {
        this(layout, pacelab, host, simulator, jobs, collect, RunSpace.FreeSpace.FILE_STORE);
    }

    /** @param freeSpace how much space the campaign's file system has (a test gives its own) */
    LocalExecutor(CampaignLayout layout, PacelabLauncher pacelab, Host host, SimulationBackend simulator, int jobs, Collect collect,
                  RunSpace.FreeSpace freeSpace) {
        this.layout = layout;
        this.pacelab = pacelab;
        this.host = host;
        this.simulator = simulator;
        this.jobs = jobs;
        this.collect = collect;
        this.supervisor = new ProcessSupervisor(layout.children());
        this.freeSpace = freeSpace;
    }

    @Override
    public void execute(List<RunSpec> pending, RunRecorder recorder) throws IOException, StoreException, InterruptedException {
        if (Files.exists(layout.slurmInFlight())) {
            throw new IOException("job arrays of this campaign may still be running on a Slurm cluster (" + layout.slurmInFlight()
                    + " exists): run the same command with --executor slurm to follow them, or cancel them with scancel and "
                    + "delete that file to run the rest here");
        }
        List<String> leftovers = ProcessSupervisor.stopLeftovers(layout.children());
        if (!leftovers.isEmpty()) {
            recorder.message("stopped processes left by an interrupted run: " + String.join(", ", leftovers));
            if (leftovers.stream().anyMatch(l -> l.startsWith("netns_lab")) && host.isRoot()) {
                removeNamespaces();
            }
        }
        HostRun here = new HostRun(layout, supervisor, host, pacelab, Pki.prepare(layout.pki()), simulator, collect);
        try {
            List<RunSpec> sims = pending.stream().filter(r -> r.configuration().mode() == Mode.SIM).toList();
            List<RunSpec> emulated = pending.stream().filter(r -> r.configuration().mode() != Mode.SIM).toList();
            runSimulated(sims, here, recorder);
            for (RunSpec r : emulated) {
                if (supervisor.closed()) {
                    break;
                }
                attempt(r, here, recorder);
            }
        } finally {
            supervisor.stopAll(3_000);
        }
    }

    /**
     * Runs one repetition with retries; true when it finished and was stored. Before each attempt of a relay, netns or
     * direct run, the campaign stops (InsufficientSpaceException) when the disk cannot hold what the run writes.
     */
    private boolean attempt(RunSpec r, HostRun here, RunRecorder recorder) throws StoreException, InterruptedException,
            InsufficientSpaceException {
        boolean again = true;
        while (again && !supervisor.closed()) {
            if (r.configuration().mode() != Mode.SIM) {
                RunSpace.require(r, layout, collect, freeSpace);
            }
            int attempt = recorder.nextAttempt(r);
            recorder.started(r, attempt, "");
            HostRun.Attempt a = here.attempt(r);
            if (a.ok()) {
                recorder.finished(r, attempt, a.run(), a.startedAt(), a.seconds());
                return true;
            }
            again = recorder.failed(r, attempt, a.error(), a.startedAt(), a.seconds(), true);
        }
        return false;
    }

    private void runSimulated(List<RunSpec> sims, HostRun here, RunRecorder recorder) throws InterruptedException, StoreException {
        if (sims.isEmpty()) {
            return;
        }
        if (simulator == null) {
            throw new IllegalStateException("sim runs were planned without a simulator");
        }
        int n = Math.max(1, Math.min(jobs, sims.size()));
        recorder.parallelism(n);
        ExecutorService pool = Executors.newFixedThreadPool(n, r -> Thread.ofPlatform().name("pacelab-sim").unstarted(r));
        try {
            List<Future<Boolean>> results = new ArrayList<>();
            for (RunSpec r : sims) {
                results.add(pool.submit(() -> attempt(r, here, recorder)));
            }
            for (Future<Boolean> f : results) {
                try {
                    f.get();
                } catch (ExecutionException e) {
                    Throwable c = e.getCause();
                    if (c instanceof StoreException se) {
                        throw se;
                    }
                    throw new IllegalStateException("a simulated run failed unexpectedly: " + c, c);
                }
            }
        } finally {
            pool.shutdownNow();
            recorder.parallelism(1);
        }
    }

    @Override
    public void interrupted() {
        List<ChildProcess> live = supervisor.live();
        supervisor.shutdown(3_000);
        if (host.isRoot() && live.stream().anyMatch(c -> c.name().equals("netns lab"))) {
            removeNamespaces();
        }
        if (!live.isEmpty()) {
            System.err.println("\npacelab run: interrupted; stopped " + live.size() + " process(es). Finished runs are stored; "
                    + "run the same command again to finish the campaign.");
        }
    }

    private static void removeNamespaces() {
        try {
            if (!NetnsLab.leftovers().isEmpty()) {
                NetnsLab.down(true);
            }
        } catch (NetnsException e) {
            System.err.println("pacelab run: " + e.getMessage());
        }
    }
}
