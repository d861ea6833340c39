package org.pacelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.analysis.summary.SummaryField;
import org.pacelab.lab.host.Host;

/**
 * Issue 18's acceptance through a single-node Slurm that this class starts ({@code scripts/slurm-local.sh up} with a
 * directory, ports and munge socket of its own, its node unable to see one directory) and stops by PID, also when a
 * test fails: a simulated sweep of 20 runs through Slurm gives every run the same {@code summary.json} as the local
 * executor, byte for byte but for the host's load average the runner records beside each run, and the same table;
 * the submitting command interrupted (SIGTERM), then killed (SIGKILL) mid-campaign and run again loses nothing and
 * runs nothing twice; {@code scancel} is reported per run; no sbatch, an unknown partition and a campaign
 * directory the node cannot see each get one sentence.
 */
@Tag("root")
class SlurmCampaignTest {
    private static final String SWEEP = """
            name: slurm-sweep
            mode: sim
            link: {preset: quic-steps}
            transfer: {size: 1MiB}
            repetitions: 5
            seed: 1
            implementations:
              - {name: pacelab, server: pacelab, client: pacelab, options: {pacer: interval}}
            sweep:
              cc: [cubic, newreno]
              link.down.rate: [20mbit, 40mbit]
            """;
    private static final String SMALL = """
            name: slurm-small
            mode: sim
            link: {preset: quic-steps}
            transfer: {size: 1MiB}
            repetitions: 2
            seed: 3
            implementations: [pacelab]
            sweep:
              cc: [cubic, newreno]
            """;
    private static final Path SCRIPT = Path.of("..", "scripts", "slurm-local.sh").toAbsolutePath().normalize();
    private static final long MINUTES = 20;

    @TempDir
    static Path shared;

    private static Path cluster;
    private static Path hidden;
    private static Map<String, String> env;

    @BeforeAll
    static void startSlurm() throws Exception {
        Host host = new Host();
        CampaignPreconditions.require(host.isRoot(), "a single-node Slurm needs root");
        for (String p : List.of("munged", "slurmctld", "slurmd", "sbatch")) {
            CampaignPreconditions.require(host.which(p).isPresent(), p + " is not installed (apt-get install -y slurm-wlm munge)");
        }
        // munged runs as user munge and must reach its socket under this directory
        Files.setPosixFilePermissions(shared, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        cluster = shared.resolve("cluster");
        hidden = shared.resolve("hidden");
        Files.createDirectories(hidden);
        Process up = new ProcessBuilder(SCRIPT.toString(), "up", "--dir", cluster.toString(), "--hide", hidden.toString())
                .redirectErrorStream(true).start();
        String out = new String(up.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(up.waitFor(2, TimeUnit.MINUTES), "slurm-local.sh up did not return");
        assertEquals(0, up.exitValue(), out);
        Matcher m = Pattern.compile("export SLURM_CONF=(\\S+)").matcher(out);
        assertTrue(m.find(), out);
        env = Map.of("SLURM_CONF", m.group(1));
    }

    @AfterAll
    static void stopSlurm() throws Exception {
        if (cluster == null || !Files.exists(cluster)) {
            return;
        }
        Process down = new ProcessBuilder(SCRIPT.toString(), "down", "--dir", cluster.toString()).redirectErrorStream(true).start();
        String out = new String(down.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        boolean ended = down.waitFor(2, TimeUnit.MINUTES);
        // whatever the script managed, no daemon of this cluster outlives the test
        List<Long> pids = new ArrayList<>();
        for (String f : List.of("slurmd.pid", "slurmctld.pid", "munge/munged.pid")) {
            Path p = cluster.resolve(f);
            if (Files.isRegularFile(p)) {
                pids.add(Long.parseLong(Files.readString(p).strip()));
            }
        }
        for (long pid : pids) {
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        }
        assertTrue(ended && down.exitValue() == 0, "slurm-local.sh down: " + out);
        assertTrue(pids.isEmpty(), "slurm-local.sh down left PID files: " + pids);
    }

    // ---- acceptance: same results, interruption ------------------------------------------------------------------

    @Test
    void aSweepThroughSlurmMatchesTheLocalExecutorAndSurvivesAKilledSubmitter() throws Exception {
        Path scenario = Files.writeString(shared.resolve("sweep.yaml"), SWEEP);
        Path dir = shared.resolve("sweep");
        Path localDir = shared.resolve("sweep-local");
        Run local = pacelab(Map.of(), "run", scenario.toString(), "--out", dir.toString(), "--no-install", "--jobs", "2");
        assertEquals(0, local.code(), local.all());
        // the same directory for both, so that summaries (which name their capture's path) can match byte for byte
        Files.move(dir, localDir);

        // Ctrl-C (SIGTERM) after the first stored run: the array keeps running
        Process first = start(env, "run", scenario.toString(), "--out", dir.toString(), "--no-install", "--executor", "slurm");
        String firstOut;
        try {
            firstOut = readUntil(first, "[1/20] ");
            first.toHandle().destroy(); // SIGTERM, as Ctrl-C; the output stays readable
            firstOut += readRest(first);
            assertTrue(first.waitFor(1, TimeUnit.MINUTES));
        } finally {
            first.destroyForcibly();
        }
        assertTrue(firstOut.contains("slurm: submitted job array "), firstOut);
        assertTrue(firstOut.contains("keep running on the cluster and their runs finish there. Run the same command again"), firstOut);
        Map<String, String> stored = finished(dir);
        assertTrue(stored.size() >= 1 && stored.size() < 20, "interrupted mid-campaign: " + stored.keySet());
        assertTrue(Files.exists(dir.resolve("slurm").resolve("in-flight")), "the array is in flight");
        // meanwhile the local executor refuses the campaign rather than run the array's runs a second time
        CliRun here = CliRun.of("run", scenario.toString(), "--out", dir.toString(), "--no-install", "--no-report");
        assertEquals(1, here.code(), here.out() + here.err());
        assertTrue(here.err().contains("job arrays of this campaign may still be running on a Slurm cluster"), here.err());
        assertEquals(stored, finished(dir));

        // a second submitter follows the array and is killed (SIGKILL, no chance to clean up)
        Process killed = start(env, "run", scenario.toString(), "--out", dir.toString(), "--no-install", "--executor", "slurm");
        try {
            firstOut += readUntil(killed, "slurm: following job array ");
        } finally {
            killed.destroyForcibly();
            assertTrue(killed.waitFor(1, TimeUnit.MINUTES));
        }
        Map<String, String> before = finished(dir);
        stored.forEach((key, started) -> assertEquals(started, before.get(key), key + " was not redone"));

        Run second = pacelab(env, "run", scenario.toString(), "--out", dir.toString(), "--no-install", "--executor", "slurm");
        assertEquals(0, second.code(), firstOut + second.all());
        assertTrue(second.out().contains("resuming: " + before.size() + " of 20 runs are already finished and stored"), second.out());
        assertTrue(second.out().contains("slurm: following job array "), second.out());
        assertFalse(second.out().contains("slurm: submitted job array "), "nothing is submitted again: " + second.out());
        assertTrue(second.out().contains("20 of 20 runs finished (" + (20 - before.size()) + " in this session)"), second.out());

        // nothing lost, nothing run twice
        Map<String, String> after = finished(dir);
        assertEquals(20, after.size(), after.toString());
        before.forEach((key, started) -> assertEquals(started, after.get(key), key + " was not redone"));
        assertEquals(Map.of("finished 1", 20L), attempts(dir), "one attempt per run");
        Map<String, Integer> starts = taskStarts(dir);
        assertEquals(20, starts.size(), starts.toString());
        starts.forEach((key, n) -> assertEquals(1, n, key + " started " + n + " times on the node"));
        assertFalse(Files.exists(dir.resolve("slurm").resolve("in-flight")));

        // the same results as the local executor: summary.json byte for byte (but the host's load), and the same table
        List<Path> summaries;
        try (Stream<Path> s = Files.walk(localDir.resolve("runs"))) {
            summaries = s.filter(p -> p.getFileName().toString().equals("summary.json")).sorted().toList();
        }
        assertEquals(20, summaries.size());
        for (Path l : summaries) {
            Path s = dir.resolve(localDir.relativize(l));
            assertEquals(withoutHostLoad(l), withoutHostLoad(s), "summary of " + localDir.relativize(l));
        }
        assertEquals(table(local.out()), table(second.out()));
        assertTrue(Files.isRegularFile(dir.resolve("report").resolve("index.html")));
    }

    @Test
    void scancelIsReportedPerRunAndTheNextRunFinishesTheCampaign() throws Exception {
        Path scenario = Files.writeString(shared.resolve("small.yaml"), SMALL);
        Path dir = shared.resolve("small");
        Process p = start(env, "run", scenario.toString(), "--out", dir.toString(), "--no-install", "--no-report", "--executor",
                "slurm", "--runs-per-task", "1");
        String out;
        try {
            out = readUntil(p, "slurm: submitted job array ");
            Matcher m = Pattern.compile("submitted job array ([0-9]+)").matcher(out);
            assertTrue(m.find(), out);
            Run cancel = command(env, "scancel", m.group(1));
            assertEquals(0, cancel.code(), cancel.all());
            out += readRest(p);
            assertTrue(p.waitFor(MINUTES, TimeUnit.MINUTES));
        } finally {
            p.destroyForcibly();
        }
        assertEquals(1, p.exitValue(), out);
        int finished = count(out, "^\\[[0-9]/4\\] ");
        int cancelled = count(out, "^pacelab cc=(cubic|newreno) #[12]: CANCELLED: job [0-9]+_[0-3]( on node \\S+)? was cancelled \\(scancel\\)$");
        assertEquals(4, finished + cancelled, out);
        assertTrue(cancelled >= 1, out);

        Run again = pacelab(env, "run", scenario.toString(), "--out", dir.toString(), "--no-install", "--no-report", "--executor", "slurm");
        assertEquals(0, again.code(), out + again.all());
        assertTrue(again.out().contains("4 of 4 runs finished (" + cancelled + " in this session)"), again.out());
        Map<String, Long> a = attempts(dir);
        assertEquals(cancelled, a.getOrDefault("failed 1", 0L), a.toString());
        assertEquals(cancelled, a.getOrDefault("finished 2", 0L), a.toString());
    }

    // ---- bad input ---------------------------------------------------------------------------------------------

    @Test
    void anUnknownPartitionIsOneSentenceAndCreatesNothing() throws Exception {
        Path scenario = Files.writeString(shared.resolve("p.yaml"), SMALL);
        Path dir = shared.resolve("partition");
        Run r = pacelab(env, "run", scenario.toString(), "--out", dir.toString(), "--no-install", "--executor", "slurm",
                "--partition", "nosuch");
        assertEquals(2, r.code(), r.all());
        assertEquals(List.of("pacelab run: unknown Slurm partition 'nosuch': pass one of this cluster's partitions to --partition "
                + "(pacelab (default)), or leave --partition out for the default"), r.err().lines().toList());
        assertFalse(Files.exists(dir));
    }

    @Test
    void withoutSbatchOnThePathTheSentenceSaysHowToGetIt() throws Exception {
        Path scenario = Files.writeString(shared.resolve("n.yaml"), SMALL);
        Run r = pacelab(Map.of("PATH", "/nonexistent"), "run", scenario.toString(), "--out", shared.resolve("nosbatch").toString(),
                "--no-install", "--executor", "slurm");
        assertEquals(2, r.code(), r.all());
        List<String> lines = r.err().lines().toList();
        assertEquals(1, lines.size(), r.err());
        assertTrue(lines.getFirst().startsWith("pacelab run: sbatch is not on the PATH"), r.err());
        assertTrue(lines.getFirst().contains("apt-get install slurm-client"), r.err());
    }

    @Test
    void aCampaignDirectoryTheNodeCannotSeeIsOneSentence() throws Exception {
        Path scenario = Files.writeString(shared.resolve("h.yaml"), SMALL);
        Path dir = hidden.resolve("campaign");
        Run r = pacelab(env, "run", scenario.toString(), "--out", dir.toString(), "--no-install", "--executor", "slurm");
        assertEquals(1, r.code(), r.all());
        List<String> lines = r.err().lines().toList();
        assertEquals(1, lines.size(), r.err());
        assertTrue(lines.getFirst().matches("pacelab run: job [0-9]+_[0-9]+ could not start on node \\S+ \\(Slurm: "
                + "JobLaunchFailure\\): the node could not open the task's log .*, so it does not see the campaign directory "
                + Pattern.quote(dir.toString()) + " \\(or cannot write it\\); pass --out a directory on a filesystem every node "
                + "mounts and the job's user can write \\(the arrays of this session are cancelled\\)"), r.err());
        try (Stream<Path> s = Files.list(dir.resolve("slurm"))) {
            assertEquals(List.of(), s.toList(), "no submission and no in-flight marker left");
        }
        Run queue = command(env, "squeue", "--noheader", "--format=%T|%j");
        assertEquals(0, queue.code(), queue.all());
        assertTrue(queue.out().lines().noneMatch(l -> l.startsWith("PENDING") || l.startsWith("RUNNING")), queue.out());
    }

    // ---- helpers -----------------------------------------------------------------------------------------------

    private record Run(int code, String out, String err) {
        String all() {
            return out + err;
        }
    }

    private static List<String> java(String... args) {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        cmd.addAll(List.of(args));
        return cmd;
    }

    private static Process start(Map<String, String> environment, String... args) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(java(args)).redirectErrorStream(true);
        pb.environment().putAll(environment);
        Process p = pb.start();
        // a bounded test: a runner that never ends is stopped
        Thread.ofPlatform().daemon().start(() -> {
            try {
                if (!p.waitFor(MINUTES, TimeUnit.MINUTES)) {
                    p.destroyForcibly();
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
            }
        });
        return p;
    }

    private static Run pacelab(Map<String, String> environment, String... args) throws IOException, InterruptedException {
        return run(environment, java(args));
    }

    private static Run command(Map<String, String> environment, String... cmd) throws IOException, InterruptedException {
        return run(environment, List.of(cmd));
    }

    private static Run run(Map<String, String> environment, List<String> cmd) throws IOException, InterruptedException {
        Path out = Files.createTempFile(shared, "out", ".txt");
        Path err = Files.createTempFile(shared, "err", ".txt");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().putAll(environment);
        Process p = pb.start();
        try {
            if (!p.waitFor(MINUTES, TimeUnit.MINUTES)) {
                throw new AssertionError(String.join(" ", cmd) + " did not finish within " + MINUTES + " minutes");
            }
        } finally {
            p.destroyForcibly();
        }
        return new Run(p.exitValue(), Files.readString(out), Files.readString(err));
    }

    private static final Map<Process, BufferedReader> READERS = new java.util.concurrent.ConcurrentHashMap<>();

    private static BufferedReader reader(Process p) {
        return READERS.computeIfAbsent(p, q -> new BufferedReader(new InputStreamReader(q.getInputStream(), StandardCharsets.UTF_8)));
    }

    /** Reads the rest of a process's output, to its end. */
    private static String readRest(Process p) throws IOException {
        StringBuilder out = new StringBuilder();
        String line;
        while ((line = reader(p).readLine()) != null) {
            out.append(line).append('\n');
        }
        return out.toString();
    }

    /** Reads a process's output until a line starts with {@code prefix}; returns everything read. */
    private static String readUntil(Process p, String prefix) throws IOException {
        BufferedReader r = reader(p);
        StringBuilder out = new StringBuilder();
        String line;
        while ((line = r.readLine()) != null) {
            out.append(line).append('\n');
            if (line.startsWith(prefix)) {
                return out.toString();
            }
        }
        throw new AssertionError("pacelab ended before printing '" + prefix + "':\n" + out);
    }

    private static int count(String text, String regex) {
        Pattern p = Pattern.compile(regex);
        return (int) text.lines().filter(l -> p.matcher(l).find()).count();
    }

    /**
     * A summary.json's text without the lines of the host's load average, which the runner records beside every run
     * (the conditions it ran under: two executions of the same run never share them); every other byte must match.
     */
    private static String withoutHostLoad(Path summary) throws IOException {
        String text = Files.readString(summary);
        String load = "\"" + SummaryField.HOST_LOAD_START.jsonName() + "\"";
        assertTrue(text.contains(load), "the summary records the load: " + summary);
        return text.lines().filter(line -> !line.contains("\"" + SummaryField.HOST_LOAD_START.jsonName())
                && !line.contains("\"" + SummaryField.HOST_LOAD_END.jsonName())).collect(java.util.stream.Collectors.joining("\n"));
    }

    /** The summary table pacelab prints after a campaign. */
    private static String table(String out) {
        int from = out.indexOf("runs finished (");
        int to = out.indexOf("report: ");
        assertTrue(from > 0 && to > from, out);
        return out.substring(out.indexOf('\n', from) + 1, to);
    }

    /** run_key to started_at of the finished runs. */
    private static Map<String, String> finished(Path dir) throws Exception {
        Map<String, String> m = new TreeMap<>();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + dir.resolve("campaign.duckdb"));
             Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT run_key, CAST(started_at AS VARCHAR) FROM runs")) {
            while (r.next()) {
                assertFalse(m.containsKey(r.getString(1)), "no duplicate run rows");
                m.put(r.getString(1), r.getString(2));
            }
        }
        return m;
    }

    /** "STATUS ATTEMPT" to how many attempts the store logged. */
    private static Map<String, Long> attempts(Path dir) throws Exception {
        Map<String, Long> m = new TreeMap<>();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + dir.resolve("campaign.duckdb"));
             Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT status || ' ' || attempt, count(*) FROM attempts GROUP BY ALL")) {
            while (r.next()) {
                m.put(r.getString(1), r.getLong(2));
            }
        }
        return m;
    }

    /** Per run key, how many times an array task started it (the tasks' logs). */
    private static Map<String, Integer> taskStarts(Path dir) throws IOException {
        Map<String, Integer> m = new LinkedHashMap<>();
        Pattern started = Pattern.compile("^started .* \\((\\S+), attempt [0-9]+\\)$");
        List<Path> logs;
        try (Stream<Path> s = Files.walk(dir.resolve("slurm"))) {
            logs = s.filter(p -> p.getFileName().toString().matches("task-[0-9]+\\.log")).toList();
        }
        for (Path log : logs) {
            for (String line : Files.readAllLines(log)) {
                Matcher mm = started.matcher(line);
                if (mm.matches()) {
                    m.merge(mm.group(1), 1, Integer::sum);
                }
            }
        }
        return m;
    }
}
