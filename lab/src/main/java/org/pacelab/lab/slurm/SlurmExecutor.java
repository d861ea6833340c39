package org.pacelab.lab.slurm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;

import org.pacelab.analysis.summary.Summary;
import org.pacelab.analysis.summary.SummaryJson;
import org.pacelab.lab.peer.PacelabLauncher;
import org.pacelab.lab.plan.RunSpec;
import org.pacelab.lab.run.AnalysedRun;
import org.pacelab.lab.run.CampaignLayout;
import org.pacelab.lab.run.RunExecutor;
import org.pacelab.lab.run.RunFiles;
import org.pacelab.lab.run.RunRecorder;
import org.pacelab.lab.scenario.Mode;
import org.pacelab.lab.scenario.ScenarioRecipe;
import org.pacelab.lab.store.StoreException;

/**
 * Runs a campaign's pending runs as Slurm job arrays and follows them from the submitting machine. Simulated runs are
 * packed several to an array task with a few CPUs; relay and netns runs get a task and a whole node each
 * ({@code --exclusive}: they measure timing). Each task runs {@code pacelab slurm-task} on its node ({@link SlurmTask}),
 * which writes the runs' directories under the campaign directory (on a filesystem every node mounts) and an
 * {@link AttemptRecord} per run; this command reads those records, stores finished runs through the
 * {@link RunRecorder} like the local executor, and resubmits failed ones as {@code --retries} allows.
 * <p>
 * Interruption: a submission's manifest is written before {@code sbatch} and names the array uniquely, so a
 * submitting command killed at any moment is followed up by the next one: arrays still known to Slurm are followed
 * (not submitted again), finished runs are stored from their records, and only runs that no array holds are
 * submitted. Ctrl-C leaves the arrays running (their work is not lost). A task that ends without a record is
 * reported per run with Slurm's state: cancelled (scancel; not retried), time limit, node failure, out of memory.
 */
public final class SlurmExecutor implements RunExecutor {
    private static final long POLL_MILLIS = 1_000;
    private static final long SQUEUE_MILLIS = 3_000;
    /** How long a task that ran may take to have its records seen after Slurm says it ended (shared filesystems cache). */
    private static final long GRACE_MILLIS = 20_000;

    private final SlurmCluster cluster;
    private final SlurmCluster.Partition partition;
    private final SlurmSettings settings;
    private final ScenarioRecipe recipe;
    private final CampaignLayout layout;
    private final PacelabLauncher pacelab;
    private final List<Live> live = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final Map<String, Tracked> tracked = new LinkedHashMap<>();
    private int maxArraySize = -1;

    /** A submission being followed. */
    private record Live(Submission submission, Path dir, String jobId, long submittedAtMillis) {}

    /** A run whose attempt is in an array task. */
    private static final class Tracked {
        final RunSpec run;
        final int attempt;
        final Live live;
        final int task;
        boolean shownStarted;
        long endSeenAtMillis;

        Tracked(RunSpec run, int attempt, Live live, int task) {
            this.run = run;
            this.attempt = attempt;
            this.live = live;
            this.task = task;
        }
    }

    /**
     * Checks the cluster and the campaign directory before anything is submitted.
     *
     * @throws SlurmException no Slurm commands, no controller, an unknown partition, bad settings, or a campaign
     *                        directory that the partition's other nodes cannot see
     */
    public static SlurmExecutor prepare(SlurmCluster cluster, SlurmSettings settings, ScenarioRecipe recipe, CampaignLayout layout,
                                        PacelabLauncher pacelab) throws SlurmException {
        String problem = settings.problem();
        if (problem != null) {
            throw new SlurmException(problem);
        }
        SlurmCluster.Partition p = cluster.partition(settings.partition());
        String local = localOnly(layout.root(), p);
        if (local != null) {
            throw new SlurmException(local);
        }
        return new SlurmExecutor(cluster, p, settings, recipe, layout, pacelab);
    }

    private SlurmExecutor(SlurmCluster cluster, SlurmCluster.Partition partition, SlurmSettings settings, ScenarioRecipe recipe,
                          CampaignLayout layout, PacelabLauncher pacelab) {
        this.cluster = cluster;
        this.partition = partition;
        this.settings = settings;
        this.recipe = recipe;
        this.layout = layout;
        this.pacelab = pacelab;
    }

    /** How runs will be packed, for the plan printed before a campaign. */
    public String describe() {
        int cpus = settings.cpusFor(partition.minCpus());
        return "slurm: partition " + partition.name() + " (" + partition.hosts().size() + " node(s), " + partition.minCpus()
                + "+ CPUs each" + (partition.up() ? "" : ", DOWN") + "); simulated runs packed " + settings.runsFor(cpus)
                + " to an array task with " + cpus + " CPU(s), relay and netns runs one to a task on a whole node";
    }

    /**
     * Why the campaign directory cannot be seen by the partition's nodes, when that is certain from here: it is on
     * a memory filesystem of this machine and the partition has nodes other than this one. Otherwise null (a node
     * that cannot see it is found when its first task cannot open its log there).
     */
    static String localOnly(Path root, SlurmCluster.Partition p) {
        Set<String> me = new LinkedHashSet<>();
        String host = hostName();
        me.add(host);
        me.add(host.contains(".") ? host.substring(0, host.indexOf('.')) : host);
        me.add("localhost");
        if (me.containsAll(p.hosts())) {
            return null;
        }
        Path existing = root;
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing == null) {
            return null;
        }
        try {
            FileStore store = Files.getFileStore(existing);
            String type = store.type();
            if (type.equals("tmpfs") || type.equals("ramfs")) {
                return "the campaign directory " + root + " is on this machine's memory filesystem (" + type + "), which the nodes of "
                        + "partition " + p.name() + " (" + String.join(", ", p.hosts()) + ") cannot see: pass --out a directory "
                        + "on a filesystem every node mounts (NFS, Lustre, BeeGFS, CephFS)";
            }
        } catch (IOException e) {
            return null;
        }
        return null;
    }

    // ---- execute ----------------------------------------------------------------------------------------------

    @Override
    public void execute(List<RunSpec> pending, RunRecorder recorder) throws IOException, StoreException, InterruptedException {
        Files.createDirectories(layout.slurm());
        Map<String, RunSpec> byKey = new LinkedHashMap<>();
        pending.forEach(r -> byKey.put(r.key(), r));
        try {
            adoptEarlierSubmissions(byKey, recorder);
            List<RunSpec> fresh = pending.stream().filter(r -> !tracked.containsKey(r.key())).toList();
            submit(fresh, recorder);
            follow(recorder);
        } catch (SlurmException e) {
            throw new IOException(e.getMessage(), e);
        } finally {
            finishSubmissions();
            if (tracked.isEmpty()) {
                Files.deleteIfExists(layout.slurmInFlight());
            }
        }
    }

    private void adoptEarlierSubmissions(Map<String, RunSpec> byKey, RunRecorder recorder) throws IOException, StoreException, SlurmException {
        List<Path> dirs;
        try (Stream<Path> s = Files.list(layout.slurm())) {
            dirs = s.filter(Files::isDirectory).sorted().toList();
        }
        for (Path dir : dirs) {
            if (Files.exists(dir.resolve("done"))) {
                continue;
            }
            Submission s;
            try {
                s = Submission.read(dir);
            } catch (IOException e) {
                recorder.message("slurm: " + e.getMessage() + "; left alone");
                continue;
            }
            List<Tracked> mine = new ArrayList<>();
            Live l = new Live(s, dir, readJobId(dir), 0);
            for (int i = 0; i < s.tasks().size(); i++) {
                for (Submission.SubmittedRun e : s.tasks().get(i)) {
                    RunSpec r = byKey.get(e.run());
                    if (r == null || r.seed() != e.seed() || !r.configuration().id().equals(e.config()) || recorder.recorded(r, e.attempt())) {
                        continue; // stored already, or no longer planned
                    }
                    Tracked old = tracked.get(e.run());
                    if (old != null && old.attempt >= e.attempt()) {
                        continue;
                    }
                    mine.add(new Tracked(r, e.attempt(), l, i));
                }
            }
            if (mine.isEmpty()) {
                markDone(dir);
                continue;
            }
            String jobId = l.jobId();
            if (jobId == null) {
                List<TaskState> states = cluster.tasks(List.of(s.jobName()));
                jobId = states.isEmpty() ? null : states.getFirst().arrayJobId();
                if (jobId != null) {
                    writeJobId(dir, jobId);
                } else if (!leftTraces(dir)) {
                    // killed before sbatch answered, and no task ever ran: it was never submitted
                    deleteTree(dir);
                    continue;
                }
                l = new Live(s, dir, jobId, 0);
            }
            for (Tracked t : mine) {
                tracked.put(t.run.key(), new Tracked(t.run, t.attempt, l, t.task));
            }
            live.add(l);
            recorder.message("slurm: following job array " + (l.jobId() == null ? s.jobName() : l.jobId())
                    + " submitted earlier (" + mine.size() + " of its runs not stored yet)");
        }
    }

    /** Submits the runs: simulated ones packed into tasks with a few CPUs, the others one to a whole node. */
    private void submit(List<RunSpec> runs, RunRecorder recorder) throws IOException, StoreException, SlurmException {
        if (runs.isEmpty()) {
            return;
        }
        List<RunSpec> sims = runs.stream().filter(r -> r.configuration().mode() == Mode.SIM).toList();
        List<RunSpec> whole = runs.stream().filter(r -> r.configuration().mode() != Mode.SIM).toList();
        int cpus = settings.cpusFor(partition.minCpus());
        submitPacked(sims, settings.runsFor(cpus), false, cpus, recorder);
        submitPacked(whole, 1, true, 0, recorder);
    }

    private void submitPacked(List<RunSpec> runs, int perTask, boolean exclusive, int cpus, RunRecorder recorder)
            throws IOException, StoreException, SlurmException {
        if (runs.isEmpty()) {
            return;
        }
        if (maxArraySize < 0) {
            maxArraySize = cluster.maxArraySize();
        }
        List<List<RunSpec>> tasks = new ArrayList<>();
        for (int i = 0; i < runs.size(); i += perTask) {
            tasks.add(runs.subList(i, Math.min(runs.size(), i + perTask)));
        }
        for (int from = 0; from < tasks.size(); from += maxArraySize) {
            submitArray(tasks.subList(from, Math.min(tasks.size(), from + maxArraySize)), exclusive, cpus, recorder);
        }
    }

    private void submitArray(List<List<RunSpec>> tasks, boolean exclusive, int cpus, RunRecorder recorder)
            throws IOException, StoreException, SlurmException {
        String id = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT)) + "-"
                + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt()).substring(0, 6);
        Path dir = layout.slurm().resolve(id);
        List<List<Submission.SubmittedRun>> manifest = new ArrayList<>();
        Map<RunSpec, Integer> attempts = new LinkedHashMap<>();
        for (List<RunSpec> t : tasks) {
            List<Submission.SubmittedRun> entries = new ArrayList<>();
            for (RunSpec r : t) {
                int a = recorder.nextAttempt(r);
                attempts.put(r, a);
                entries.add(new Submission.SubmittedRun(r.key(), r.configuration().id(), r.repetition(), r.seed(), a));
            }
            manifest.add(entries);
        }
        Submission s = new Submission(Submission.VERSION, id, "pacelab-" + id, layout.root().toString(), exclusive, cpus,
                Submission.Recipe.of(recipe), manifest);
        Files.writeString(layout.slurmInFlight(), "job arrays of this campaign may be running; see " + layout.slurm() + "\n",
                StandardCharsets.UTF_8);
        s.write(dir);
        Path script = dir.resolve("task.sh");
        Files.writeString(script, script(s), StandardCharsets.UTF_8);
        List<String> options = new ArrayList<>(List.of("--job-name=" + s.jobName(), "--array=0-" + (tasks.size() - 1),
                "--output=" + dir.resolve("task-%a.log"), "--open-mode=append", "--chdir=" + layout.root(),
                "--partition=" + partition.name()));
        options.add(exclusive ? "--exclusive" : "--cpus-per-task=" + cpus);
        options.addAll(settings.sbatchOptions());
        String jobId;
        try {
            jobId = cluster.submit(options, script);
        } catch (SlurmException e) {
            deleteTree(dir);
            throw e;
        }
        writeJobId(dir, jobId);
        Live l = new Live(s, dir, jobId, System.currentTimeMillis());
        live.add(l);
        for (int i = 0; i < tasks.size(); i++) {
            for (RunSpec r : tasks.get(i)) {
                tracked.put(r.key(), new Tracked(r, attempts.get(r), l, i));
            }
        }
        int runs = s.runs();
        recorder.message("slurm: submitted job array " + jobId + " to partition " + partition.name() + ": " + runs + " run(s) in "
                + tasks.size() + " task(s), " + (exclusive ? "each on a whole node" : tasks.getFirst().size() + " per task with "
                + cpus + " CPU(s)") + " (logs: " + dir + ")");
    }

    /** The batch script: runs this pacelab build's {@code slurm-task} on the node for the array task's index. */
    private String script(Submission s) {
        List<String> cmd = pacelab.command(List.of("slurm-task", layout.root().toString(), s.id()));
        StringBuilder b = new StringBuilder("#!/bin/sh\n");
        b.append("# pacelab campaign ").append(layout.root()).append(", submission ").append(s.id()).append(": array task N runs\n");
        b.append("# the runs listed for task N in submission.json, with the same pacelab build as the submitting machine\n");
        b.append("exec");
        for (String c : cmd) {
            b.append(' ').append(shellQuote(c));
        }
        b.append(" \"$SLURM_ARRAY_TASK_ID\"\n");
        return b.toString();
    }

    // ---- follow -----------------------------------------------------------------------------------------------

    private void follow(RunRecorder recorder) throws StoreException, InterruptedException, SlurmException, IOException {
        Map<String, TaskState> states = new LinkedHashMap<>();
        Set<String> known = new LinkedHashSet<>();
        long lastSqueue = 0;
        String lastStatus = "";
        boolean squeueFailing = false;
        while (!tracked.isEmpty()) {
            long now = System.currentTimeMillis();
            if (now - lastSqueue >= SQUEUE_MILLIS) {
                List<String> names = live.stream().filter(l -> tracked.values().stream().anyMatch(t -> t.live == l))
                        .map(l -> l.submission().jobName()).distinct().toList();
                try {
                    List<TaskState> list = cluster.tasks(names);
                    states.clear();
                    known.clear();
                    for (TaskState t : list) {
                        states.put(t.jobName() + ":" + t.task(), t);
                        known.add(t.jobName());
                    }
                    lastSqueue = now;
                    squeueFailing = false;
                } catch (SlurmException e) {
                    if (!squeueFailing) {
                        recorder.message("slurm: " + e.getMessage() + "; trying again");
                    }
                    squeueFailing = true;
                    lastSqueue = now;
                }
                String status = status(states);
                if (!status.equals(lastStatus)) {
                    recorder.status(status);
                    lastStatus = status;
                }
            }
            List<RunSpec> retry = new ArrayList<>();
            int running = 0;
            for (Tracked t : List.copyOf(tracked.values())) {
                TaskState st = states.get(t.live.submission().jobName() + ":" + t.task);
                boolean mayHaveRun = st == null || !st.pending();
                AttemptRecord rec = mayHaveRun ? AttemptRecord.read(AttemptRecord.file(t.live.dir(), t.run.key())) : null;
                if (rec != null && rec.attempt() != t.attempt) {
                    rec = null;
                }
                if (rec != null && rec.ended()) {
                    tracked.remove(t.run.key());
                    if (ingest(t, rec, recorder)) {
                        retry.add(t.run);
                    }
                    continue;
                }
                if (rec != null && rec.status().equals(AttemptRecord.RUNNING) && (st == null || st.live())) {
                    running++;
                    if (!t.shownStarted) {
                        t.shownStarted = true;
                        recorder.started(t.run, t.attempt, " on " + rec.node() + " (job " + rec.job() + ")");
                    }
                }
                if (squeueFailing || (st != null && st.live())) {
                    continue;
                }
                if (st == null && known.isEmpty() && now - t.live.submittedAtMillis() < GRACE_MILLIS) {
                    continue; // just submitted: not in squeue's answer yet
                }
                if (st != null && st.state().equals("FAILED") && st.reason().equals("JobLaunchFailure")) {
                    throw launchFailure(t, st);
                }
                boolean terminated = rec != null && rec.status().equals(AttemptRecord.TERMINATED);
                boolean neverRan = st != null ? !st.ran() : known.contains(t.live.submission().jobName());
                if (t.endSeenAtMillis == 0) {
                    t.endSeenAtMillis = now;
                }
                if (!terminated && !neverRan && now - t.endSeenAtMillis < GRACE_MILLIS) {
                    continue; // its record may not be visible here yet
                }
                tracked.remove(t.run.key());
                if (lost(t, st, rec, known, recorder)) {
                    retry.add(t.run);
                }
            }
            recorder.parallelism(Math.max(1, running));
            finishSubmissions();
            if (!retry.isEmpty()) {
                submit(retry, recorder);
            }
            if (!tracked.isEmpty()) {
                Thread.sleep(POLL_MILLIS);
            }
        }
    }

    /** "job 12: 3 tasks running, 5 pending (Resources)", shown while no run has started. */
    private String status(Map<String, TaskState> states) {
        Map<String, int[]> counts = new LinkedHashMap<>();
        Map<String, String> reasons = new LinkedHashMap<>();
        for (TaskState t : states.values()) {
            int[] c = counts.computeIfAbsent(t.arrayJobId(), k -> new int[2]);
            if (t.pending()) {
                c[1]++;
                if (!t.reason().isEmpty() && !t.reason().equals("None")) {
                    reasons.putIfAbsent(t.arrayJobId(), t.reason());
                }
            } else if (t.running()) {
                c[0]++;
            }
        }
        List<String> parts = new ArrayList<>();
        counts.forEach((job, c) -> {
            if (c[0] + c[1] > 0) {
                parts.add("job " + job + ": " + c[0] + " task(s) running, " + c[1] + " pending"
                        + (reasons.containsKey(job) ? " (" + reasons.get(job) + ")" : ""));
            }
        });
        return String.join("; ", parts);
    }

    /** Stores a finished run from its files, or records the failure; returns whether it is tried again. */
    private boolean ingest(Tracked t, AttemptRecord rec, RunRecorder recorder) throws StoreException {
        Instant started = parseInstant(rec.startedAt());
        if (rec.status().equals(AttemptRecord.FAILED)) {
            return recorder.failed(t.run, t.attempt, rec.error() + " (node " + rec.node() + ", job " + rec.job() + ")", started,
                    rec.seconds(), true);
        }
        Path dir = layout.runDir(t.run);
        Summary summary;
        try {
            summary = SummaryJson.read(dir.resolve(RunFiles.SUMMARY));
        } catch (IOException e) {
            return recorder.failed(t.run, t.attempt, "finished on node " + rec.node() + " (job " + rec.job() + ") but its summary "
                    + "cannot be read here: " + e.getMessage(), started, rec.seconds(), true);
        }
        Path packets = rec.packets() ? dir.resolve(RunFiles.PACKETS) : null;
        Path timeline = rec.timeline() ? dir.resolve(RunFiles.TIMELINE) : null;
        recorder.finished(t.run, t.attempt, new AnalysedRun(summary, packets, timeline, rec.clientWallNs(), rec.bytes()), started,
                rec.seconds());
        return false;
    }

    /** A run whose task ended without recording how the run ended: Slurm's state says why. Returns whether to retry. */
    private boolean lost(Tracked t, TaskState st, AttemptRecord rec, Set<String> known, RunRecorder recorder) throws StoreException {
        String job = st != null ? st.id() : (t.live.jobId() == null ? t.live.submission().jobName() : t.live.jobId()) + "_" + t.task;
        String node = st != null && st.ran() ? " on node " + st.node() : "";
        Instant started = rec != null ? parseInstant(rec.startedAt()) : Instant.now();
        double seconds = rec != null ? rec.seconds() : 0;
        String log = " (log: " + t.live.dir().resolve("task-" + t.task + ".log") + ")";
        if (st == null) {
            if (known.contains(t.live.submission().jobName())) {
                return recorder.cancelled(t.run, t.attempt, "job " + job + " was cancelled (scancel) before it started", started);
            }
            return recorder.failed(t.run, t.attempt, "job " + job + " ended without recording this run, and Slurm no longer "
                    + "knows how it ended (accounting is off or the controller forgot the job)" + log, started, seconds, true);
        }
        return switch (st.state()) {
            case "CANCELLED" -> recorder.cancelled(t.run, t.attempt, "job " + job + node + " was cancelled (scancel)", started);
            case "TIMEOUT" -> recorder.failed(t.run, t.attempt, "job " + job + node + " hit its time limit; give tasks more time "
                    + "(--slurm-option=--time=HH:MM:SS) or pack fewer runs per task (--runs-per-task)", started, seconds, true);
            case "OUT_OF_MEMORY" -> recorder.failed(t.run, t.attempt, "job " + job + node + " ran out of memory; ask for more "
                    + "(--slurm-option=--mem=8G) or pack fewer runs per task (--runs-per-task)" + log, started, seconds, true);
            case "NODE_FAIL", "BOOT_FAIL" -> recorder.failed(t.run, t.attempt, "the node of job " + job + node + " failed ("
                    + st.state() + ")", started, seconds, true);
            case "PREEMPTED" -> recorder.failed(t.run, t.attempt, "job " + job + node + " was preempted", started, seconds, true);
            case "DEADLINE" -> recorder.failed(t.run, t.attempt, "job " + job + " missed its deadline", started, seconds, true);
            default -> recorder.failed(t.run, t.attempt, "job " + job + node + " ended (" + st.state()
                    + (st.reason().isEmpty() || st.reason().equals("None") ? "" : ", " + st.reason()) + ") without recording this run"
                    + lastLine(t.live.dir().resolve("task-" + t.task + ".log")) + log, started, seconds, true);
        };
    }

    /**
     * A task could not even start: its node cannot open its log in the campaign directory. Every array of this
     * campaign would fail alike, so they are cancelled, and submissions whose tasks never ran are forgotten.
     */
    private SlurmException launchFailure(Tracked t, TaskState st) throws IOException {
        cluster.cancel(live.stream().map(Live::jobId).filter(j -> j != null).distinct().toList());
        for (Live l : List.copyOf(live)) {
            if (!Files.isDirectory(l.dir().resolve("runs"))) {
                tracked.values().removeIf(x -> x.live == l);
                live.remove(l);
                deleteTree(l.dir());
            }
        }
        return new SlurmException("job " + st.id() + " could not start on node " + st.node() + " (Slurm: JobLaunchFailure): the node "
                + "could not open the task's log " + t.live.dir().resolve("task-" + t.task + ".log") + ", so it does not see the "
                + "campaign directory " + layout.root() + " (or cannot write it); pass --out a directory on a filesystem every node "
                + "mounts and the job's user can write (the arrays of this session are cancelled)");
    }

    /** Submissions with no run left in flight are marked done; the next session skips them. */
    private void finishSubmissions() throws IOException {
        for (Live l : List.copyOf(live)) {
            if (tracked.values().stream().noneMatch(t -> t.live == l)) {
                markDone(l.dir());
                live.remove(l);
            }
        }
    }

    @Override
    public void interrupted() {
        List<String> jobs = live.stream().map(l -> l.jobId() == null ? l.submission().jobName() : l.jobId()).distinct().toList();
        if (jobs.isEmpty()) {
            return;
        }
        System.err.println("\npacelab run: interrupted; job array(s) " + String.join(" ", jobs) + " keep running on the cluster and "
                + "their runs finish there. Run the same command again to follow them and store their results (scancel "
                + String.join(" ", jobs) + " cancels them).");
    }

    // ---- files ------------------------------------------------------------------------------------------------

    private static String readJobId(Path dir) {
        try {
            String s = Files.readString(dir.resolve("job"), StandardCharsets.UTF_8).strip();
            return s.matches("[0-9]+") ? s : null;
        } catch (IOException e) {
            return null;
        }
    }

    private static void writeJobId(Path dir, String jobId) throws IOException {
        org.pacelab.analysis.io.AtomicFiles.writeString(dir.resolve("job"), jobId + "\n");
    }

    private static void markDone(Path dir) throws IOException {
        if (Files.isDirectory(dir)) {
            Files.writeString(dir.resolve("done"), "every run of this submission is stored\n", StandardCharsets.UTF_8);
        }
    }

    /** Whether any task of the submission left a log or a record (so it was submitted). */
    private static boolean leftTraces(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            if (s.anyMatch(p -> p.getFileName().toString().startsWith("task-") && p.getFileName().toString().endsWith(".log"))) {
                return true;
            }
        }
        return Files.isDirectory(dir.resolve("runs"));
    }

    private static String lastLine(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8).stream().filter(l -> !l.isBlank()).toList();
            return lines.isEmpty() ? "" : ": " + lines.getLast().strip();
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    private static Instant parseInstant(String s) {
        try {
            return Instant.parse(s);
        } catch (RuntimeException e) {
            return Instant.now();
        }
    }

    private static void deleteTree(Path p) throws IOException {
        if (!Files.exists(p)) {
            return;
        }
        try (Stream<Path> s = Files.walk(p)) {
            for (Path q : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(q);
            }
        }
    }

    static String shellQuote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }

    private static String hostName() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
        } catch (IOException e) {
            return "localhost";
        }
    }
}
