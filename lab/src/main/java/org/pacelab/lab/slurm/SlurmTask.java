package org.pacelab.lab.slurm;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.pacelab.lab.bench.ProcCpu;
import org.pacelab.lab.host.Host;
import org.pacelab.lab.peer.PacelabLauncher;
import org.pacelab.lab.peer.PeerRegistry;
import org.pacelab.lab.plan.CampaignPlan;
import org.pacelab.lab.plan.CampaignPlanner;
import org.pacelab.lab.plan.PlanningContext;
import org.pacelab.lab.plan.RunSpec;
import org.pacelab.lab.run.CampaignLayout;
import org.pacelab.lab.run.HostRun;
import org.pacelab.lab.run.Pki;
import org.pacelab.lab.run.ProcessSupervisor;
import org.pacelab.lab.run.RunRecorder;
import org.pacelab.lab.run.SimulationBackend;
import org.pacelab.lab.scenario.Mode;
import org.pacelab.lab.scenario.ScenarioException;
import org.pacelab.net.netns.NetnsException;
import org.pacelab.net.netns.NetnsLab;

/**
 * What one array task does on its node ({@code pacelab slurm-task DIR SUBMISSION INDEX}): reads the submission,
 * plans the campaign again from its scenario recipe (configurations that cannot run on this node are named with the
 * reason), and runs its runs through {@link HostRun} exactly as the local executor would — simulated ones as many at
 * once as the task has CPUs, relay and netns ones one after the other — writing an {@link AttemptRecord} for each. A
 * run whose record for this attempt already says it ended (Slurm requeued the task) is not run again. When Slurm stops
 * the task (SIGTERM: scancel, time limit, preemption), its unfinished runs are recorded as {@code terminated}.
 */
public final class SlurmTask {
    private final CampaignLayout layout;
    private final Path submissionDir;
    private final Submission submission;
    private final int index;
    private final PrintStream log;
    private final String job;
    private final String node;
    private final Map<String, Instant> inFlight = new ConcurrentHashMap<>();
    private final Set<String> ended = ConcurrentHashMap.newKeySet();
    private boolean stopping;

    private SlurmTask(CampaignLayout layout, Path submissionDir, Submission submission, int index, PrintStream log) {
        this.layout = layout;
        this.submissionDir = submissionDir;
        this.submission = submission;
        this.index = index;
        this.log = log;
        String arrayJob = System.getenv().getOrDefault("SLURM_ARRAY_JOB_ID", "?");
        this.job = arrayJob + "_" + index;
        this.node = System.getenv().getOrDefault("SLURMD_NODENAME", hostName());
    }

    /** Runs the task; returns the process's exit status (0 when every run has its record, failed runs included). */
    public static int run(Path campaign, String submissionId, int index, PacelabLauncher pacelab, Host host,
                          SimulationBackend simulator, PrintStream log) throws InterruptedException {
        CampaignLayout layout = new CampaignLayout(campaign);
        Path dir = layout.slurm().resolve(submissionId);
        Submission s;
        try {
            s = Submission.read(dir);
        } catch (IOException e) {
            log.println("pacelab slurm-task: " + e.getMessage() + " (is the campaign directory " + layout.root()
                    + " the one the submitting machine wrote, on a filesystem this node mounts?)");
            return 2;
        }
        if (index < 0 || index >= s.tasks().size()) {
            log.println("pacelab slurm-task: submission " + submissionId + " has tasks 0 to " + (s.tasks().size() - 1) + ", not " + index);
            return 2;
        }
        return new SlurmTask(layout, dir, s, index, log).run(pacelab, host, simulator);
    }

    private int run(PacelabLauncher pacelab, Host host, SimulationBackend simulator) throws InterruptedException {
        List<Submission.SubmittedRun> mine = submission.tasks().get(index);
        int cpus = cpus();
        log.printf(Locale.ROOT, "pacelab slurm-task: job %s on node %s: %d run(s), %s%n", job, node, mine.size(),
                submission.exclusive() ? "a whole node, one at a time" : cpus + " at once");
        Map<String, RunSpec> planned = new HashMap<>();
        String planProblem = null;
        try {
            var scenario = submission.scenario().recipe().scenario();
            CampaignPlan plan = CampaignPlanner.plan(scenario, new PlanningContext(PeerRegistry.forScenario(scenario), host, pacelab,
                    null, true, Path.of(submission.scenario().baseDir())));
            for (RunSpec r : plan.runs()) {
                planned.put(r.key(), r);
            }
            if (!plan.skipped().isEmpty()) {
                planProblem = String.join("; ", plan.skipped());
            }
        } catch (ScenarioException e) {
            planProblem = String.join("; ", e.problems());
        }
        ProcessSupervisor supervisor = new ProcessSupervisor(submissionDir.resolve("task-" + index + ".children"));
        ProcessSupervisor.stopLeftovers(submissionDir.resolve("task-" + index + ".children"));
        Thread hook = new Thread(() -> terminated(supervisor, host), "pacelab-slurm-task-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            List<RunSpec> sims = new ArrayList<>();
            List<RunSpec> emulated = new ArrayList<>();
            Map<String, Integer> attempts = new HashMap<>();
            for (Submission.SubmittedRun e : mine) {
                RunSpec r = planned.get(e.run());
                Path record = AttemptRecord.file(submissionDir, e.run());
                AttemptRecord previous = AttemptRecord.read(record);
                if (previous != null && previous.attempt() == e.attempt() && previous.ended()) {
                    log.println(e.run() + ": attempt " + e.attempt() + " already " + previous.status() + "; not run again");
                    continue;
                }
                if (r == null || r.seed() != e.seed() || !r.configuration().id().equals(e.config())) {
                    String why = "configuration " + e.config() + " cannot run on node " + node
                            + (planProblem == null ? ": this node's pacelab does not plan it (is it the same build as the "
                            + "submitting machine's?)" : ": " + planProblem);
                    write(new AttemptRecord(e.run(), e.attempt(), AttemptRecord.FAILED, job, node, Instant.now().toString(), 0, why,
                            -1, 0, false, false));
                    log.println(e.run() + ": FAILED: " + why);
                    continue;
                }
                attempts.put(e.run(), e.attempt());
                (r.configuration().mode() == Mode.SIM ? sims : emulated).add(r);
            }
            Pki pki = emulated.isEmpty() ? new Pki(layout.pki().resolve("cert.pem"), layout.pki().resolve("key.pem"))
                    : Pki.prepare(layout.pki());
            if (!emulated.isEmpty() && host.isRoot()) {
                removeNamespaces();
            }
            HostRun here = new HostRun(layout, supervisor, host, pacelab, pki, simulator, submission.scenario().recipe().scenario().collect());
            double ready = secondsSinceJvmStart();
            runAll(sims, Math.max(1, cpus), here, attempts);
            for (RunSpec r : emulated) {
                if (supervisor.closed()) {
                    break;
                }
                attempt(r, attempts.get(r.key()), here);
            }
            log.printf(Locale.ROOT, "pacelab slurm-task: done: %d run(s), %.1f s after the JVM started (%.1f s of it before the "
                    + "first run: JVM start and planning), %.1f CPU s (this JVM and the processes it waited for)%n",
                    attempts.size(), secondsSinceJvmStart(), ready, cpuSeconds());
            return 0;
        } catch (IOException | ScenarioException e) {
            log.println("pacelab slurm-task: " + (e instanceof ScenarioException se ? String.join("; ", se.problems()) : e.getMessage()));
            return 1;
        } finally {
            supervisor.stopAll(3_000);
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running
            }
        }
    }

    private void runAll(List<RunSpec> sims, int cpus, HostRun here, Map<String, Integer> attempts)
            throws InterruptedException, IOException {
        if (sims.isEmpty()) {
            return;
        }
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(cpus, sims.size()),
                r -> Thread.ofPlatform().name("pacelab-sim").unstarted(r));
        try {
            List<Future<Void>> results = new ArrayList<>();
            for (RunSpec r : sims) {
                results.add(pool.submit(() -> {
                    attempt(r, attempts.get(r.key()), here);
                    return null;
                }));
            }
            for (Future<Void> f : results) {
                try {
                    f.get();
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof IOException io) {
                        throw io;
                    }
                    throw new IllegalStateException("a simulated run failed unexpectedly: " + e.getCause(), e.getCause());
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private void attempt(RunSpec r, int attempt, HostRun here) throws InterruptedException, IOException {
        String label = RunRecorder.label(r) + " (" + r.key() + ", attempt " + attempt + ")";
        Instant started = Instant.now();
        inFlight.put(r.key(), started);
        write(new AttemptRecord(r.key(), attempt, AttemptRecord.RUNNING, job, node, started.toString(), 0, null, -1, 0, false, false));
        log.println("started " + label);
        HostRun.Attempt a = here.attempt(r);
        AttemptRecord done = a.ok()
                ? new AttemptRecord(r.key(), attempt, AttemptRecord.FINISHED, job, node, a.startedAt().toString(), a.seconds(), null,
                a.run().clientWallNs(), a.run().bytes(), a.run().packetsCsv() != null, a.run().timelineCsv() != null)
                : new AttemptRecord(r.key(), attempt, AttemptRecord.FAILED, job, node, a.startedAt().toString(), a.seconds(), a.error(),
                -1, 0, false, false);
        synchronized (this) {
            if (stopping && !a.ok()) {
                return; // Slurm stopped the task and with it this run: its record says terminated
            }
            write(done);
            ended.add(r.key());
            inFlight.remove(r.key());
        }
        log.printf(Locale.ROOT, "%s %s after %.1f s%s%n", a.ok() ? "finished" : "FAILED", label, a.seconds(),
                a.ok() ? "" : ": " + a.error());
    }

    private void write(AttemptRecord r) throws IOException {
        r.write(AttemptRecord.file(submissionDir, r.run()));
    }

    /** SIGTERM from Slurm: stop the runs' processes and record every run of this task that has not ended. */
    private void terminated(ProcessSupervisor supervisor, Host host) {
        synchronized (this) {
            stopping = true;
        }
        supervisor.shutdown(3_000);
        synchronized (this) {
            for (Submission.SubmittedRun e : submission.tasks().get(index)) {
                if (ended.contains(e.run())) {
                    continue;
                }
                AttemptRecord previous = AttemptRecord.read(AttemptRecord.file(submissionDir, e.run()));
                if (previous != null && previous.attempt() == e.attempt() && previous.ended()) {
                    continue;
                }
                Instant started = inFlight.get(e.run());
                double seconds = started == null ? 0 : (System.currentTimeMillis() - started.toEpochMilli()) / 1e3;
                try {
                    write(new AttemptRecord(e.run(), e.attempt(), AttemptRecord.TERMINATED, job, node,
                            (started == null ? Instant.now() : started).toString(), seconds, "Slurm stopped the task", -1, 0,
                            false, false));
                } catch (IOException ex) {
                    log.println("pacelab slurm-task: cannot record " + e.run() + " as terminated: " + ex.getMessage());
                }
            }
        }
        if (host.isRoot()) {
            removeNamespaces();
        }
        log.println("pacelab slurm-task: stopped by Slurm (scancel, time limit or preemption)");
        log.flush();
    }

    private static double secondsSinceJvmStart() {
        return (System.currentTimeMillis() - java.lang.management.ManagementFactory.getRuntimeMXBean().getStartTime()) / 1e3;
    }

    /** CPU time of this JVM and of the child processes it has waited for (relay and netns runs' processes). */
    private static double cpuSeconds() {
        try {
            String stat = Files.readString(Path.of("/proc/self/stat"));
            return (ProcCpu.ownNanos(stat) + ProcCpu.waitedChildrenNanos(stat)) / 1e9;
        } catch (IOException | RuntimeException e) {
            return ProcessHandle.current().info().totalCpuDuration().map(d -> d.toNanos() / 1e9).orElse(Double.NaN);
        }
    }

    private int cpus() {
        String env = System.getenv("SLURM_CPUS_PER_TASK");
        if (env != null && env.matches("[0-9]+")) {
            return Integer.parseInt(env);
        }
        return submission.cpusPerTask() > 0 ? submission.cpusPerTask() : Runtime.getRuntime().availableProcessors();
    }

    private static void removeNamespaces() {
        try {
            if (!NetnsLab.leftovers().isEmpty()) {
                NetnsLab.down(true);
            }
        } catch (NetnsException e) {
            // the next netns run reports what is in its way
        }
    }

    private static String hostName() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
        } catch (IOException e) {
            return "this node";
        }
    }
}
