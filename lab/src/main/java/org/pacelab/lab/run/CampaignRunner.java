package org.pacelab.lab.run;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import org.pacelab.analysis.io.AtomicFiles;
import org.pacelab.analysis.summary.Summary;
import org.pacelab.analysis.summary.SummaryField;
import org.pacelab.analysis.summary.SummaryText;
import org.pacelab.lab.host.EnvironmentRecord;
import org.pacelab.lab.host.Host;
import org.pacelab.lab.peer.PacelabLauncher;
import org.pacelab.lab.peer.Peer;
import org.pacelab.lab.peer.Role;
import org.pacelab.lab.plan.CampaignPlan;
import org.pacelab.lab.plan.Configuration;
import org.pacelab.lab.plan.DcSetup;
import org.pacelab.lab.plan.RunSpec;
import org.pacelab.lab.report.CampaignReport;
import org.pacelab.lab.scenario.Collect;
import org.pacelab.lab.scenario.Mode;
import org.pacelab.lab.store.FinishedRun;
import org.pacelab.lab.store.ResultStore;
import org.pacelab.lab.store.StoreException;
import org.pacelab.net.netns.NetnsException;
import org.pacelab.net.netns.NetnsLab;

/**
 * Runs a campaign plan: records the scenario and the environment, skips repetitions the store already has, runs
 * the others (simulated ones in parallel, emulated ones one at a time so they do not disturb each other's timing),
 * stores each finished repetition in one transaction, and cleans up processes and namespaces on success, failure
 * and Ctrl-C. Running it again after an interruption finishes the campaign.
 */
public final class CampaignRunner {
    /**
     * @param retries  extra attempts for a failed repetition in this session
     * @param jobs     simulated repetitions run at once
     * @param terminal whether {@code out} is a terminal (the progress line redraws in place)
     */
    public record Settings(int retries, int jobs, PrintStream out, boolean terminal) {}

    /** What a session did. */
    public record Result(int planned, int finishedBefore, int finishedNow, List<String> failures, List<String> skipped) {
        public boolean complete() {
            return failures.isEmpty() && finishedBefore + finishedNow == planned;
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final CampaignPlan plan;
    private final CampaignLayout layout;
    private final PacelabLauncher pacelab;
    private final Host host;
    private final SimulationBackend simulator;
    private final Settings settings;
    private final ProcessSupervisor supervisor;

    public CampaignRunner(CampaignPlan plan, CampaignLayout layout, PacelabLauncher pacelab, Host host,
                          SimulationBackend simulator, Settings settings) {
        this.plan = plan;
        this.layout = layout;
        this.pacelab = pacelab;
        this.host = host;
        this.simulator = simulator;
        this.settings = settings;
        this.supervisor = new ProcessSupervisor(layout.children());
    }

    public Result run() throws IOException, StoreException, InterruptedException {
        Files.createDirectories(layout.root());
        try (FileChannel lockFile = FileChannel.open(layout.lock(), StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            FileLock lock = lockFile.tryLock();
            if (lock == null) {
                throw new IOException(layout.root() + " is in use by another 'pacelab run' (it holds " + layout.lock() + ")");
            }
            try {
                return runLocked();
            } finally {
                lock.release();
            }
        }
    }

    private Result runLocked() throws IOException, StoreException, InterruptedException {
        PrintStream out = settings.out();
        List<String> leftovers = ProcessSupervisor.stopLeftovers(layout.children());
        if (!leftovers.isEmpty()) {
            out.println("stopped processes left by an interrupted run: " + String.join(", ", leftovers));
            if (leftovers.stream().anyMatch(l -> l.startsWith("netns_lab")) && host.isRoot()) {
                removeNamespaces();
            }
        }
        Thread hook = new Thread(this::interrupted, "pacelab-run-cleanup");
        Runtime.getRuntime().addShutdownHook(hook);
        try (ResultStore store = ResultStore.open(layout.store())) {
            recordCampaign(store);
            Set<String> finished = store.finishedRuns();
            List<RunSpec> all = plan.runs();
            List<RunSpec> todo = all.stream().filter(r -> !finished.contains(r.key())).toList();
            int before = all.size() - todo.size();
            if (before > 0) {
                out.println("resuming: " + before + " of " + all.size() + " runs are already finished and stored; "
                        + todo.size() + " to go");
            }
            prepareFiles();
            Pki pki = Pki.prepare(layout.pki());
            Progress progress = new Progress(out, settings.terminal(), all.size(), before, estimateSeconds(todo));
            ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> Thread.ofPlatform().daemon().unstarted(r));
            if (settings.terminal()) {
                ticker.scheduleAtFixedRate(progress::tick, 1, 1, TimeUnit.SECONDS);
            }
            List<String> failures = new ArrayList<>();
            int[] now = {0};
            try {
                List<RunSpec> sims = todo.stream().filter(r -> r.configuration().mode() == Mode.SIM).toList();
                List<RunSpec> emulated = todo.stream().filter(r -> r.configuration().mode() != Mode.SIM).toList();
                runSimulated(sims, store, progress, failures, now);
                EmulatedRunExecutor exec = new EmulatedRunExecutor(supervisor, pacelab, layout.documentRoot(), pki, collect());
                DcRunExecutor dcExec = new DcRunExecutor(supervisor, pacelab, layout.documentRoot(), pki, collect());
                for (RunSpec r : emulated) {
                    if (supervisor.closed()) {
                        break;
                    }
                    if (attempt(r, store, progress, dir -> {
                        List<String> paths = DocumentRoot.prepare(layout.documentRoot(), r.configuration().transfer());
                        return r.configuration().dc() != null ? dcExec.run(r, dir, paths) : exec.run(r, dir, paths);
                    }, failures)) {
                        now[0]++;
                    }
                }
            } finally {
                ticker.shutdownNow();
                progress.end();
                supervisor.stopAll(3_000);
            }
            store.checkpoint();
            return new Result(all.size(), before, now[0], failures, plan.skipped());
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running
            }
        }
    }

    private Collect collect() {
        return plan.scenario().collect();
    }

    private interface Execution {
        AnalysedRun run(Path dir) throws RunFailedException, InterruptedException, IOException;
    }

    /** Runs one repetition with retries; true when it finished and was stored. */
    private boolean attempt(RunSpec r, ResultStore store, Progress progress, Execution execution, List<String> failures)
            throws StoreException, InterruptedException {
        String label = r.configuration().name() + " #" + r.repetition();
        int attempts = store.attempts(r.key());
        for (int tries = 0; tries <= settings.retries() && !supervisor.closed(); tries++) {
            int attempt = ++attempts;
            Path dir = layout.runDir(r);
            Instant started = Instant.now();
            long t0 = System.nanoTime();
            progress.started(label + (attempt > 1 ? " (attempt " + attempt + ")" : ""));
            try {
                deleteTree(dir);
                Files.createDirectories(dir);
                AnalysedRun a = execution.run(dir);
                double seconds = (System.nanoTime() - t0) / 1e9;
                store.recordFinished(new FinishedRun(r.key(), r.configuration().id(), r.repetition(), r.seed(), attempt, started,
                        seconds, a.clientWallNs() > 0 ? a.clientWallNs() / 1e9 : Double.NaN, a.bytes(), dir, a.summary(),
                        a.packetsCsv(), a.timelineCsv()));
                removeRawFiles(dir, collect().keep() != Collect.Keep.ALL);
                progress.finished(label, seconds, brief(a.summary()));
                return true;
            } catch (RunFailedException | IOException e) {
                double seconds = (System.nanoTime() - t0) / 1e9;
                String error = e.getMessage() + " (logs: " + dir + ")";
                store.recordFailure(r.key(), attempt, error, started, seconds);
                writeFailure(dir, error);
                removeRawFiles(dir, collect().keep() == Collect.Keep.NONE);
                progress.failed(label, seconds, error);
                if (tries == settings.retries()) {
                    failures.add(label + ": " + error);
                }
            }
        }
        return false;
    }

    private void runSimulated(List<RunSpec> sims, ResultStore store, Progress progress, List<String> failures, int[] now)
            throws InterruptedException, StoreException {
        if (sims.isEmpty()) {
            return;
        }
        if (simulator == null) {
            throw new IllegalStateException("sim runs were planned without a simulator");
        }
        int jobs = Math.max(1, Math.min(settings.jobs(), sims.size()));
        progress.parallelism(jobs);
        ExecutorService pool = Executors.newFixedThreadPool(jobs, r -> Thread.ofPlatform().name("pacelab-sim").unstarted(r));
        try {
            List<Future<Boolean>> results = new ArrayList<>();
            List<String> local = java.util.Collections.synchronizedList(new ArrayList<>());
            for (RunSpec r : sims) {
                results.add(pool.submit(() -> attempt(r, store, progress, dir -> {
                    simulator.simulate(r.configuration(), r.seed(), dir, collect());
                    DcSetup dc = r.configuration().dc();
                    if (dc != null) {
                        // every flow of a simulation is one of its pairs; the clients' time is virtual
                        return DcRunExecutor.analyze(dir, dc, dc.durationNs(), 0, description -> true);
                    }
                    Path clientLog = dir.resolve("client.json");
                    return RunAnalysis.analyze(dir, r.key(), null, r.configuration().transfer().totalBytes(),
                            Files.isRegularFile(clientLog) ? clientLog : null, -1, r.configuration().client().name(), collect(),
                            r.configuration().link());
                }, local)));
            }
            for (Future<Boolean> f : results) {
                try {
                    if (f.get()) {
                        now[0]++;
                    }
                } catch (ExecutionException e) {
                    Throwable c = e.getCause();
                    if (c instanceof StoreException se) {
                        throw se;
                    }
                    throw new IllegalStateException("a simulated run failed unexpectedly: " + c, c);
                }
            }
            failures.addAll(local);
        } finally {
            pool.shutdownNow();
            progress.parallelism(1);
        }
    }

    // ---- campaign record ------------------------------------------------------------------------------------

    private void recordCampaign(ResultStore store) throws IOException, StoreException {
        Map<String, String> env = new LinkedHashMap<>(EnvironmentRecord.collect(host));
        Set<Peer> used = new LinkedHashSet<>();
        for (Configuration c : plan.configurations()) {
            used.add(c.server());
            used.add(c.client());
        }
        for (Peer p : used) {
            for (Role role : p.roles()) {
                if (plan.configurations().stream().anyMatch(c -> (role == Role.SERVER ? c.server() : c.client()) == p)) {
                    env.put("peer." + p.name() + "." + role.word(), p.version(role, host, pacelab));
                }
            }
        }
        String envJson = JSON.writeValueAsString(env);
        AtomicFiles.writeString(layout.environment(), envJson + "\n");
        AtomicFiles.writeString(layout.scenarioCopy(), plan.scenario().text());
        Map<String, String> info = new LinkedHashMap<>();
        String sha = sha256(plan.scenario().text());
        String previous = store.campaignInfo().get("scenario.sha256");
        if (previous != null && !previous.equals(sha)) {
            settings.out().println("note: the scenario changed since this campaign started; finished runs of configurations "
                    + "whose settings did not change are kept");
        }
        info.put("scenario.name", plan.scenario().name());
        info.put("scenario.source", plan.scenario().source());
        info.put("scenario.text", plan.scenario().text());
        info.put("scenario.sha256", sha);
        info.put("scenario.reproduces", plan.scenario().reproduces());
        info.put("scenario.description", plan.scenario().description());
        info.put("environment", envJson);
        info.put("environment." + Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS), envJson);
        info.put("skipped", String.join("\n", plan.skipped()));
        info.put(CampaignReport.PLAN_KEY, String.join(",", plan.configurations().stream().map(Configuration::id).toList()));
        store.putCampaignInfo(info);
        int position = 0;
        for (Configuration c : plan.configurations()) {
            store.putConfiguration(c, position++, c.server().version(Role.SERVER, host, pacelab), c.client().version(Role.CLIENT, host, pacelab));
        }
    }

    private void prepareFiles() throws IOException {
        Set<Peer> clients = new LinkedHashSet<>();
        for (Configuration c : plan.configurations()) {
            if (c.mode() != Mode.SIM) {
                DocumentRoot.prepare(layout.documentRoot(), c.transfer());
                clients.add(c.client());
            }
        }
        for (Peer p : clients) {
            p.prepareDocumentRoot(layout.documentRoot());
        }
    }

    private static double estimateSeconds(List<RunSpec> runs) {
        double sum = 0;
        for (RunSpec r : runs) {
            Configuration c = r.configuration();
            long rate = c.link().down().rateBps() > 0 ? c.link().down().rateBps() : 1_000_000_000L;
            if (c.dc() != null && c.dc().durationNs() > 0) {
                // the simulator ran the fairness setup (3 pairs, 40 Mbit/s in all) about 8 times faster than real time
                sum += c.mode() == Mode.SIM ? c.dc().durationNs() / 1e9 / 8 + 2 : c.dc().durationNs() / 1e9 + 10;
                continue;
            }
            sum += c.mode() == Mode.SIM ? 2 : 8.0 * c.transfer().totalBytes() / rate + 6;
        }
        return runs.isEmpty() ? 0 : sum / runs.size();
    }

    // ---- files ------------------------------------------------------------------------------------------------

    private static final List<String> RAW = List.of(RunFiles.TAP, RunFiles.EVENTS, RunFiles.KEYS, RunFiles.QLOG, RunFiles.PACKETS);

    private static void removeRawFiles(Path dir, boolean remove) {
        if (!remove) {
            return;
        }
        for (String name : RAW) {
            try {
                deleteTree(dir.resolve(name));
            } catch (IOException e) {
                // a file that cannot be removed stays; the results are stored already
            }
        }
    }

    private static void writeFailure(Path dir, String error) {
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("FAILED.txt"), error + "\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            // the failure is in the store and on the terminal already
        }
    }

    static void deleteTree(Path p) throws IOException {
        if (!Files.exists(p)) {
            return;
        }
        try (Stream<Path> s = Files.walk(p)) {
            for (Path q : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(q);
            }
        }
    }

    // ---- interruption ----------------------------------------------------------------------------------------

    private void interrupted() {
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

    private static String brief(Summary s) {
        List<String> parts = new ArrayList<>();
        add(parts, s, SummaryField.JFI, "jfi %s");
        add(parts, s, SummaryField.DC_FLOW_MBPS, "dc flow %s Mbit/s");
        add(parts, s, SummaryField.GOODPUT_WIRE_MBPS, "goodput %s Mbit/s");
        add(parts, s, SummaryField.DROPS, "drops %s");
        add(parts, s, SummaryField.PTL_LE2_SHARE, "ptl<=2 %s");
        add(parts, s, SummaryField.PRECISION_US, "precision %s us");
        return parts.isEmpty() ? "finished" : String.join(", ", parts);
    }

    private static void add(List<String> parts, Summary s, SummaryField f, String format) {
        if (s.has(f)) {
            parts.add(String.format(Locale.ROOT, format, SummaryText.formatNumber(s.number(f))));
        }
    }

    static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
