package org.pacelab.lab.interop;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.ClosedByInterruptException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.time.Clock;

import org.pacelab.analysis.io.AtomicFiles;
import org.pacelab.io.tls.Certificates;
import org.pacelab.lab.host.EnvironmentRecord;
import org.pacelab.lab.host.Host;
import org.pacelab.lab.host.SourceCommit;
import org.pacelab.lab.peer.Availability;
import org.pacelab.lab.peer.PacelabLauncher;
import org.pacelab.lab.peer.Role;
import org.pacelab.lab.run.ProcessSupervisor;
import org.pacelab.lab.run.RunConditions;

/**
 * Runs the QUIC Interop Runner's test cases between every server and every client chosen (pacelab against each peer
 * in both roles, and the peers against each other), one cell at a time or several at once ({@link #run(Plan, int)}),
 * and writes the matrix: {@code matrix.json}, {@code index.html}, {@code matrix.md}, {@code environment.json} and one
 * directory per cell under {@code runs/} (tap, key logs, logs, the emulator's counters, {@code result.json}). Every
 * file is written atomically.
 *
 * <p>Resumable, like a campaign: a cell whose {@code result.json} holds a finished result of the same seed is taken
 * as it is (unless {@link Rerun} names it), a cell without one (never run, or interrupted) runs, and the matrix files
 * cover every cell of the directory, also those an earlier invocation ran for other cases or peers, each with its
 * {@link CellProvenance}. So a matrix too long for one sitting is built in slices with the same {@code --out}.
 */
public final class InteropMatrix {
    /** What to run. */
    public record Plan(List<InteropEndpoint> servers, List<InteropEndpoint> clients, List<InteropCase> cases, long seed,
                       Rerun rerun, List<InteropMeasurement> measurements) {
        public Plan {
            measurements = List.copyOf(measurements);
        }

        public Plan(List<InteropEndpoint> servers, List<InteropEndpoint> clients, List<InteropCase> cases, long seed,
                    Rerun rerun) {
            this(servers, clients, cases, seed, rerun, List.of());
        }

        public Plan(List<InteropEndpoint> servers, List<InteropEndpoint> clients, List<InteropCase> cases, long seed) {
            this(servers, clients, cases, seed, Rerun.NONE);
        }
    }

    /**
     * Which cells that already have a finished result run again: {@code all} of the plan, the {@code failed} ones, or
     * those of the named {@code cases}.
     */
    public record Rerun(boolean all, boolean failed, Set<String> cases) {
        public static final Rerun NONE = new Rerun(false, false, Set.of());

        /** From {@code --rerun}: {@code all}, {@code failed} and case names, in any mix. */
        public static Rerun of(List<String> words) {
            boolean all = false;
            boolean failed = false;
            Set<String> cases = new TreeSet<>();
            for (String w : words) {
                switch (w) {
                    case "all" -> all = true;
                    case "failed" -> failed = true;
                    default -> cases.add(w);
                }
            }
            return new Rerun(all, failed, Set.copyOf(cases));
        }

        boolean matches(CellResult stored) {
            return all || cases.contains(stored.testCase()) || failed && stored.result().outcome() == CheckResult.Outcome.FAILED;
        }
    }

    /** Runs one cell in its (empty) directory and checks it; the real one is {@link InteropRun}. */
    interface CellRunner {
        CheckResult run(InteropCase c, InteropEndpoint server, InteropEndpoint client, String alpn, Path dir, long seed)
                throws IOException, InterruptedException;
    }

    private final Path out;
    private final PacelabLauncher pacelab;
    private final Host host;
    private final TraceReader reader;
    private final PrintStream progress;
    private final InteropEndpoints registry;
    private final CellRunner runner;
    private final Clock clock;
    private final String commit;
    private final LoopbackPorts ports;
    /** The certificate directory per chain length, made once per matrix (guarded by itself). */
    private final Map<Integer, Path> pki = new LinkedHashMap<>();
    private final AtomicBoolean running = new AtomicBoolean();
    /** The current run's; set before its cells start. */
    private volatile ProcessSupervisor supervisor;

    public InteropMatrix(Path out, PacelabLauncher pacelab, Host host, String tshark, PrintStream progress,
                         InteropEndpoints registry) {
        this(out, pacelab, host, tshark, progress, registry, null, Clock.systemUTC(), SourceCommit.ofThisBuild());
    }

    InteropMatrix(Path out, PacelabLauncher pacelab, Host host, String tshark, PrintStream progress, InteropEndpoints registry,
                  CellRunner runner, Clock clock, String commit) {
        this.out = out.toAbsolutePath();
        this.pacelab = pacelab;
        this.host = host;
        this.reader = new TraceReader(tshark);
        this.progress = progress;
        this.registry = registry;
        this.runner = runner != null ? runner : this::runForReal;
        this.clock = clock;
        this.commit = commit;
        this.ports = LoopbackPorts.HOST;
    }

    /** Why an endpoint cannot run here in a role, or null when it can. */
    public String unusable(InteropEndpoint e, Role role) {
        Availability a = e.availability(role, host, pacelab);
        return a.usable() ? null : a.reason();
    }

    /** Runs the plan one cell at a time; see {@link #run(Plan, int)}. */
    public List<CellResult> run(Plan plan) throws IOException, InterruptedException {
        return run(plan, 1);
    }

    /**
     * Runs the plan's missing cells (and those {@link Plan#rerun} names), {@code jobs} of them at once, writes the
     * matrix after each and returns the plan's cells in plan order. Cells that run at once have their own directory,
     * relay, tap and ports ({@link LoopbackPorts}, held until the cell has stopped); they share the process supervisor,
     * the certificates (made once per chain length, under a lock) and the record of results and matrix files, which
     * one lock guards. They also share the host's CPUs, which the timing-sensitive cases notice (lab/README.md). On a
     * cell's error the cells still running are interrupted, stop their processes, and the error is thrown. One plan at
     * a time per matrix object.
     */
    public List<CellResult> run(Plan plan, int jobs) throws IOException, InterruptedException {
        if (jobs < 1) {
            throw new IllegalArgumentException("jobs: must be at least 1, got " + jobs);
        }
        if (!running.compareAndSet(false, true)) {
            throw new IllegalStateException("this matrix is already running a plan");
        }
        try {
            return runOnce(plan, jobs);
        } finally {
            running.set(false);
        }
    }

    /**
     * One cell of the plan with what the directory held for it before this run; for a measurement's cell, the
     * measurement (its repetition's case is {@code testCase}), else null.
     */
    private record Cell(InteropCase testCase, InteropEndpoint server, InteropEndpoint client, CellResult stored,
                        InteropMeasurement measurement) {
    }

    /** A cell's work, run on this thread or on one of the pool's. */
    @FunctionalInterface
    private interface CellTask {
        void run() throws IOException, InterruptedException;
    }

    private List<CellResult> runOnce(Plan plan, int jobs) throws IOException, InterruptedException {
        Files.createDirectories(out.resolve("runs"));
        Map<String, CellResult> all = MatrixStore.read(out, progress);
        String invocation = clock.instant().toString();
        Path children = out.resolve(".children");
        ProcessSupervisor.stopLeftovers(children);
        ProcessSupervisor sup = new ProcessSupervisor(children);
        supervisor = sup;
        Thread hook = new Thread(() -> sup.shutdown(2_000), "interop-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        List<Cell> todo = new ArrayList<>();
        for (InteropCase c : plan.cases()) {
            for (InteropEndpoint s : plan.servers()) {
                for (InteropEndpoint cl : plan.clients()) {
                    todo.add(new Cell(c, s, cl, all.get(c.name() + " " + s.name() + " " + cl.name()), null));
                }
            }
        }
        for (InteropMeasurement m : plan.measurements()) {
            for (InteropEndpoint s : plan.servers()) {
                for (InteropEndpoint cl : plan.clients()) {
                    todo.add(new Cell(m.repetition(), s, cl, all.get(m.name() + " " + s.name() + " " + cl.name()), m));
                }
            }
        }
        Sitting sitting = new Sitting(plan, all, todo.size());
        try {
            writeEnvironment(plan, invocation, jobs);
            List<CellTask> tasks = new ArrayList<>();
            for (int i = 0; i < todo.size(); i++) {
                int index = i;
                Cell x = todo.get(i);
                tasks.add(() -> {
                    CellResult r = cell(x.testCase(), x.measurement(), x.server(), x.client(), plan, x.stored(), invocation, jobs);
                    sitting.finished(index, r, r == x.stored());
                });
            }
            if (jobs == 1 || tasks.size() < 2) {
                for (CellTask t : tasks) {
                    t.run();
                }
            } else {
                runAtOnce(tasks, jobs);
            }
            sitting.writeMatrix();
        } finally {
            sup.stopAll(2_000);
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running
            }
        }
        return sitting.cells();
    }

    /** Runs the tasks on {@code jobs} threads; the first error interrupts the others and is thrown once they ended. */
    private void runAtOnce(List<CellTask> tasks, int jobs) throws IOException, InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(jobs, tasks.size()),
                Thread.ofPlatform().name("interop-cell-", 1).factory());
        CompletionService<Void> done = new ExecutorCompletionService<>(pool);
        AtomicBoolean failed = new AtomicBoolean();
        try {
            for (CellTask t : tasks) {
                done.submit(() -> {
                    if (failed.get()) {
                        return null; // a cell failed: start no more (a thread may reach the queue before the shutdown)
                    }
                    try {
                        t.run();
                    } catch (Throwable e) {
                        failed.set(true);
                        throw e;
                    }
                    return null;
                });
            }
            for (int i = 0; i < tasks.size(); i++) {
                try {
                    done.take().get();
                } catch (ExecutionException e) {
                    throw unwrapped(e.getCause());
                }
            }
        } finally {
            // after an error: the queued cells never start, the running ones are interrupted and stop their processes
            pool.shutdownNow();
            if (!pool.awaitTermination(60, TimeUnit.SECONDS)) {
                progress.println("pacelab interop: some cells had not stopped 60 s after the run was cut short");
            }
        }
    }

    /** A cell's error as thrown by the cell (an I/O error as it is, anything else unchecked as it is). */
    private static IOException unwrapped(Throwable t) throws InterruptedException {
        if (t instanceof IOException io) {
            return io;
        }
        if (t instanceof InterruptedException ie) {
            throw ie;
        }
        if (t instanceof RuntimeException re) {
            throw re;
        }
        if (t instanceof Error er) {
            throw er;
        }
        return new IOException(t);
    }

    /**
     * One run's record, shared by its cells: the directory's results (earlier invocations' and this one's), the plan's
     * cells in plan order, how many are done; a cell that ends prints its line and rewrites the matrix files while it
     * holds this object's lock, so the files always hold every finished cell and never an older state over a newer.
     */
    private final class Sitting {
        private final Plan plan;
        private final Map<String, CellResult> all;
        private final CellResult[] cells;
        private int done;

        Sitting(Plan plan, Map<String, CellResult> all, int total) {
            this.plan = plan;
            this.all = all;
            this.cells = new CellResult[total];
        }

        synchronized void finished(int index, CellResult r, boolean reused) throws IOException {
            cells[index] = r;
            all.put(r.key(), r);
            done++;
            progress.printf(Locale.ROOT, "[%3d/%d] %-20s %-8s -> %-8s %-11s %5.1f s  %s%s%n", done, cells.length, r.testCase(),
                    r.server(), r.client(), r.result().outcome().label(), r.seconds(),
                    reused ? "(kept from " + r.provenance().started() + ", commit " + r.provenance().commit() + ") " : "",
                    r.result().reason() == null ? "" : r.result().reason());
            progress.flush();
            InteropMatrix.this.writeMatrix(plan, all.values());
        }

        synchronized void writeMatrix() throws IOException {
            InteropMatrix.this.writeMatrix(plan, all.values());
        }

        synchronized List<CellResult> cells() {
            return List.of(cells);
        }
    }

    /**
     * Whether a stored result stands. A run cell's does while its seed is the plan's and {@code --rerun} does not name
     * it. A decided cell ("unsupported": an endpoint does not take the test name, or no common protocol; {@code before}
     * is the decision made now) is decided afresh every time, but its {@code result.json} and provenance stay as they
     * were while the decision and its reason are the same (and the seed, and {@code --rerun} does not name it): the
     * commit and time of a decision change only when the decision does, not at every sitting of a matrix built in
     * slices. A cell that ran before and is decided now, or the other way round, is done again.
     */
    static boolean keeps(CellResult stored, CheckResult before, Plan plan) {
        if (stored == null || stored.provenance().seed() != plan.seed() || plan.rerun().matches(stored)) {
            return false;
        }
        return before == null ? stored.directory() != null : stored.directory() == null && before.equals(stored.result());
    }

    /**
     * The cell's result: decided before running, kept from an earlier invocation ({@link #keeps}), or run now; a
     * measurement's cell ({@code m} not null) runs its repetitions ({@link #measure}) and stores them beside it.
     */
    private CellResult cell(InteropCase c, InteropMeasurement m, InteropEndpoint s, InteropEndpoint cl, Plan plan, CellResult stored,
                            String invocation, int jobs) throws IOException, InterruptedException {
        String alpn = alpn(c, s, cl);
        CheckResult before = before(c, s, cl, alpn);
        String rel = "runs/" + s.name() + "_" + cl.name() + "/" + c.name();
        Path dir = out.resolve(rel);
        if (keeps(stored, before, plan)) {
            return stored;
        }
        deleteTree(dir);
        Files.createDirectories(dir);
        String started = clock.instant().toString();
        double loadStart = RunConditions.loadAverage();
        if (before != null) {
            CellResult r = new CellResult(c.name(), s.name(), cl.name(), before, 0, null, null,
                    new CellProvenance(commit, invocation, started, started, loadStart, loadStart, plan.seed(), jobs));
            AtomicFiles.writeString(dir.resolve("result.json"), MatrixFiles.cellJson(r));
            return r;
        }
        long start = System.nanoTime();
        CheckResult result;
        MeasurementResult measured = null;
        try {
            if (m == null) {
                result = runner.run(c, s, cl, alpn, dir, plan.seed());
            } else {
                measured = measure(m, s, cl, alpn, dir, plan.seed());
                result = measured.result();
            }
        } catch (IOException e) {
            if (e instanceof ClosedByInterruptException || Thread.currentThread().isInterrupted()) {
                // stopped beside a failed cell (--jobs): the cell did not run to its end, so it gets no result and a
                // later invocation runs it again, instead of a "failed" one that resuming would keep
                InterruptedException stopped = new InterruptedException("cell " + c.name() + " stopped");
                stopped.addSuppressed(e);
                throw stopped;
            }
            result = CheckResult.failed("the run could not be completed: " + e.getMessage());
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        CellResult r = new CellResult(c.name(), s.name(), cl.name(), result, seconds, alpn, rel,
                new CellProvenance(commit, invocation, started, clock.instant().toString(), loadStart, RunConditions.loadAverage(),
                        plan.seed(), jobs));
        AtomicFiles.writeString(dir.resolve("result.json"), MatrixFiles.cellJson(r, measured));
        return r;
    }

    /**
     * A measurement's repetitions, each a fresh server and client through the emulator in {@code dir/rep-N} (the cell
     * runner's run of the measurement's case, whose check records the repetition's goodput), until one does not
     * succeed or all have (the runner's {@code _run_measurement}).
     */
    MeasurementResult measure(InteropMeasurement m, InteropEndpoint s, InteropEndpoint cl, String alpn, Path dir, long seed)
            throws IOException, InterruptedException {
        List<MeasurementResult.Repetition> done = new ArrayList<>();
        long bytes = m.repetition().files().totalBytes();
        for (int i = 1; i <= m.repetitions(); i++) {
            String name = "rep-" + i;
            Path rd = dir.resolve(name);
            Files.createDirectories(rd);
            Goodput[] value = new Goodput[1];
            InteropCase one = m.repetition().withCheck(run -> {
                Goodput.Checked k = Goodput.check(run, bytes);
                value[0] = k.goodput();
                return k.result();
            });
            double load = RunConditions.loadAverage();
            long start = System.nanoTime();
            CheckResult r = runner.run(one, s, cl, alpn, rd, seed);
            done.add(new MeasurementResult.Repetition(i, name, r, (System.nanoTime() - start) / 1e9, load,
                    r.ok() ? value[0] : null));
            if (!r.ok() || value[0] == null) {
                break;
            }
        }
        return MeasurementResult.of(m, done);
    }

    /** The real cell: {@link InteropRun} through the emulator, its served and downloaded files removed afterwards. */
    private CheckResult runForReal(InteropCase c, InteropEndpoint s, InteropEndpoint cl, String alpn, Path dir, long seed)
            throws IOException, InterruptedException {
        Path certs = certificates(c.certificateChain());
        InteropRun run = new InteropRun(c, s, cl, alpn, dir, certs, pacelab, supervisor, reader, seed, ports);
        try {
            return run.run();
        } finally {
            run.removeFiles();
        }
    }

    /** The runner's protocol (hq-interop, or h3 for http3) when both speak it, else h3 when both speak that. */
    static String alpn(InteropCase c, InteropEndpoint s, InteropEndpoint cl) {
        Set<String> both = new TreeSet<>(s.protocols(Role.SERVER));
        both.retainAll(cl.protocols(Role.CLIENT));
        if (both.contains(c.alpn())) {
            return c.alpn();
        }
        if (!c.alpn().equals("h3") && both.contains("h3")) {
            return "h3";
        }
        return null;
    }

    /** The result decided before running: unsupported by an endpoint, or no common protocol; null to run. */
    static CheckResult before(InteropCase c, InteropEndpoint s, InteropEndpoint cl, String alpn) {
        String why = s.unsupported(Role.SERVER, c.serverTestname());
        if (why != null) {
            return CheckResult.unsupported("server " + s.name() + ": " + why);
        }
        why = cl.unsupported(Role.CLIENT, c.clientTestname());
        if (why != null) {
            return CheckResult.unsupported("client " + cl.name() + ": " + why);
        }
        if (alpn == null) {
            return CheckResult.unsupported(c.alpn().equals("h3") ? "HTTP/3 is not spoken by " + (s.protocols(Role.SERVER).contains("h3")
                    ? "client " + cl.name() : "server " + s.name())
                    : "no common application protocol (server " + s.name() + ": " + String.join(", ", new TreeSet<>(s.protocols(Role.SERVER)))
                    + "; client " + cl.name() + ": " + String.join(", ", new TreeSet<>(cl.protocols(Role.CLIENT))) + ")");
        }
        why = s.unsupported(Role.SERVER, c.serverTestname(), alpn);
        if (why != null) {
            return CheckResult.unsupported("server " + s.name() + ": " + why);
        }
        why = cl.unsupported(Role.CLIENT, c.clientTestname(), alpn);
        if (why != null) {
            return CheckResult.unsupported("client " + cl.name() + ": " + why);
        }
        return null;
    }

    /**
     * The certificate directory for a chain length, made once per matrix; under {@link #pki}'s lock, so that two cells
     * starting at once do not both write it (one could read the other's key beside its own certificate).
     */
    private Path certificates(int length) throws IOException {
        synchronized (pki) {
            return certificatesLocked(length);
        }
    }

    private Path certificatesLocked(int length) throws IOException {
        Path dir = pki.get(length);
        if (dir != null) {
            return dir;
        }
        dir = out.resolve("pki").resolve("chain-" + length);
        Files.createDirectories(dir);
        Certificates.Identity id = Certificates.chain(length, List.of("localhost", "server", "server4", "server6", "server46",
                "127.0.0.1", "::1"), 20);
        StringBuilder pem = new StringBuilder();
        for (var cert : id.chain()) {
            pem.append(Certificates.toPem(cert));
        }
        AtomicFiles.writeString(dir.resolve("cert.pem"), pem.toString());
        AtomicFiles.writeString(dir.resolve("priv.key"), Certificates.toPem(id.key()));
        pki.put(length, dir);
        return dir;
    }

    /** The host, the peers' versions, the commit and the plan: {@code environment.json}, and per invocation in {@code invocations/}. */
    private void writeEnvironment(Plan plan, String invocation, int jobs) throws IOException {
        Map<String, String> env = new LinkedHashMap<>(EnvironmentRecord.collect(host));
        Set<InteropEndpoint> used = new java.util.LinkedHashSet<>(plan.servers());
        used.addAll(plan.clients());
        for (InteropEndpoint e : used) {
            env.put("peer " + e.name(), e.version(Role.SERVER, host, pacelab));
        }
        env.put("seed", Long.toString(plan.seed()));
        env.put("commit", commit);
        env.put("invocation", invocation);
        env.put("servers", String.join(",", plan.servers().stream().map(InteropEndpoint::name).toList()));
        env.put("clients", String.join(",", plan.clients().stream().map(InteropEndpoint::name).toList()));
        env.put("cases", String.join(",", plan.cases().stream().map(InteropCase::name).toList()));
        Rerun rr = plan.rerun();
        env.put("rerun", rr.all() ? "all" : (rr.failed() ? "failed " : "") + String.join(",", rr.cases()));
        env.put("jobs", Integer.toString(jobs));
        String json = MatrixFiles.json(env);
        AtomicFiles.writeString(out.resolve("environment.json"), json);
        Files.createDirectories(out.resolve("invocations"));
        AtomicFiles.writeString(out.resolve("invocations").resolve(invocation.replace(':', '-') + ".json"), json);
    }

    /** The matrix of every cell in the directory: the plan's endpoints and cases and those of earlier invocations. */
    private void writeMatrix(Plan plan, java.util.Collection<CellResult> stored) throws IOException {
        List<CellResult> cells = List.copyOf(stored);
        Plan shown = MatrixStore.extent(plan, cells, registry);
        AtomicFiles.writeString(out.resolve("matrix.json"), MatrixFiles.matrixJson(shown, cells));
        AtomicFiles.writeString(out.resolve("matrix.md"), MatrixFiles.markdown(shown, cells));
        AtomicFiles.writeString(out.resolve("index.html"), MatrixFiles.html(shown, cells));
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var s = Files.walk(dir)) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
