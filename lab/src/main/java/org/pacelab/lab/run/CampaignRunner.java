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
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import org.pacelab.analysis.io.AtomicFiles;
import org.pacelab.lab.host.EnvironmentRecord;
import org.pacelab.lab.host.Host;
import org.pacelab.lab.peer.PacelabLauncher;
import org.pacelab.lab.peer.Peer;
import org.pacelab.lab.peer.Role;
import org.pacelab.lab.plan.CampaignPlan;
import org.pacelab.lab.plan.Configuration;
import org.pacelab.lab.plan.RunSpec;
import org.pacelab.lab.report.CampaignReport;
import org.pacelab.lab.scenario.Collect;
import org.pacelab.lab.scenario.Mode;
import org.pacelab.lab.store.ResultStore;
import org.pacelab.lab.store.StoreException;

/**
 * Runs a campaign plan: records the scenario and the environment, skips repetitions the store already has, hands the
 * others to the executor (this machine, or a Slurm cluster), which reports every attempt to the {@link RunRecorder}:
 * each finished repetition is stored in one transaction. Running it again after an interruption finishes the campaign.
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
    private final Settings settings;
    private final RunExecutor executor;

    /** A campaign run on this machine ({@link LocalExecutor}). */
    public CampaignRunner(CampaignPlan plan, CampaignLayout layout, PacelabLauncher pacelab, Host host,
                          SimulationBackend simulator, Settings settings) {
        this(plan, layout, pacelab, host, settings,
                new LocalExecutor(layout, pacelab, host, simulator, settings.jobs(), plan.scenario().collect()));
    }

    public CampaignRunner(CampaignPlan plan, CampaignLayout layout, PacelabLauncher pacelab, Host host, Settings settings,
                          RunExecutor executor) {
        this.plan = plan;
        this.layout = layout;
        this.pacelab = pacelab;
        this.host = host;
        this.settings = settings;
        this.executor = executor;
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
        Thread hook = new Thread(executor::interrupted, "pacelab-run-cleanup");
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
            Progress progress = new Progress(out, settings.terminal(), all.size(), before, estimateSeconds(todo));
            ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> Thread.ofPlatform().daemon().unstarted(r));
            if (settings.terminal()) {
                ticker.scheduleAtFixedRate(progress::tick, 1, 1, TimeUnit.SECONDS);
            }
            RunRecorder recorder = new RunRecorder(store, layout, progress, collect(), settings.retries());
            try {
                executor.execute(todo, recorder);
            } finally {
                ticker.shutdownNow();
                progress.end();
            }
            store.checkpoint();
            return new Result(all.size(), before, recorder.finishedNow(), recorder.failures(), plan.skipped());
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

    // ---- campaign record ------------------------------------------------------------------------------------

    private void recordCampaign(ResultStore store) throws IOException, StoreException {
        Map<String, String> env = new LinkedHashMap<>(EnvironmentRecord.collect(host));
        env.put("host_setup", plan.hostSetup().summary());
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
        info.put(CampaignReport.HOST_SETUP_KEY, plan.hostSetup().summary());
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
        if (!clients.isEmpty()) {
            Pki.prepare(layout.pki());
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

    static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
