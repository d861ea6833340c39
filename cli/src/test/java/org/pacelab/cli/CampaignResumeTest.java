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
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Acceptance 3: a runner killed in the middle of a campaign (SIGKILL, no chance to clean up; or SIGTERM, as Ctrl-C)
 * is started again and completes the campaign without redoing finished repetitions and without losing or
 * duplicating results; processes it left behind are stopped.
 */
class CampaignResumeTest {
    private static final String SCENARIO = """
            name: resume
            link: {preset: none}
            transfer: {size: 1MiB}
            repetitions: 3
            implementations: [pacelab]
            """;

    @TempDir
    Path tmp;

    private Process runner(Path scenario, Path dir) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                Main.class.getName(), "run", scenario.toString(), "--out", dir.toString(), "--no-install", "--no-report")
                .redirectErrorStream(true).start();
    }

    /** Reads the runner's output until a line starts with {@code prefix}; returns everything read. */
    private static String readUntil(Process p, String prefix) throws IOException {
        BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        StringBuilder out = new StringBuilder();
        String line;
        while ((line = r.readLine()) != null) {
            out.append(line).append('\n');
            if (line.startsWith(prefix)) {
                return out.toString();
            }
        }
        throw new AssertionError("the runner ended before printing '" + prefix + "':\n" + out);
    }

    /** run_key to started_at of the finished runs, and the number of rows per key. */
    private static Map<String, String> finished(Path store) throws Exception {
        Map<String, String> m = new LinkedHashMap<>();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + store.toAbsolutePath());
             Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT run_key, CAST(started_at AS VARCHAR), (SELECT count(*) FROM summaries x "
                     + "WHERE x.run_key = runs.run_key) FROM runs ORDER BY run_key")) {
            while (r.next()) {
                assertEquals(1, r.getInt(3), "one summary per run");
                assertFalse(m.containsKey(r.getString(1)), "no duplicate run rows");
                m.put(r.getString(1), r.getString(2));
            }
        }
        return m;
    }

    private static List<Long> registeredPids(Path dir) throws IOException {
        List<Long> pids = new ArrayList<>();
        Path reg = dir.resolve(".children");
        if (Files.isRegularFile(reg)) {
            for (String l : Files.readAllLines(reg)) {
                if (!l.isBlank()) {
                    pids.add(Long.parseLong(l.split(" ")[0]));
                }
            }
        }
        return pids;
    }

    @Test
    void killedRunnerResumesWithoutRedoingOrDuplicatingRuns() throws Exception {
        Path scenario = Files.writeString(tmp.resolve("resume.yaml"), SCENARIO);
        Path dir = tmp.resolve("campaign");
        Process first = runner(scenario, dir);
        try {
            readUntil(first, "[1/3] ");
        } finally {
            first.destroyForcibly();
            assertTrue(first.waitFor(30, TimeUnit.SECONDS));
        }
        List<Long> orphans = registeredPids(dir);
        Map<String, String> before = finished(dir.resolve("campaign.duckdb"));
        assertTrue(before.size() >= 1 && before.size() < 3, "killed mid-campaign: " + before);

        CliRun second = CliRun.of("run", scenario.toString(), "--out", dir.toString(), "--no-install", "--no-report");
        assertEquals(0, second.code(), second.out() + second.err());
        assertTrue(second.out().contains("resuming: " + before.size() + " of 3 runs are already finished and stored"), second.out());
        if (!orphans.isEmpty()) {
            assertTrue(second.out().contains("stopped processes left by an interrupted run"), second.out());
        }
        for (long pid : orphans) {
            assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "left-behind process " + pid + " was stopped");
        }
        Map<String, String> after = finished(dir.resolve("campaign.duckdb"));
        assertEquals(3, after.size(), after.toString());
        before.forEach((key, started) -> assertEquals(started, after.get(key), key + " was not redone"));
        assertTrue(second.out().contains("3 of 3 runs finished (" + (3 - before.size()) + " in this session)"), second.out());
    }

    @Test
    void terminatedRunnerStopsItsProcessesAndResumes() throws Exception {
        Path scenario = Files.writeString(tmp.resolve("resume.yaml"), SCENARIO);
        Path dir = tmp.resolve("campaign");
        Process first = runner(scenario, dir);
        String out;
        try {
            out = readUntil(first, "[1/3] ");
            Thread.sleep(1500);
            List<Long> live = registeredPids(dir);
            first.destroy();
            assertTrue(first.waitFor(60, TimeUnit.SECONDS));
            for (long pid : live) {
                ProcessHandle.of(pid).ifPresent(h -> {
                    try {
                        h.onExit().get(10, TimeUnit.SECONDS);
                    } catch (Exception e) {
                        throw new AssertionError("process " + pid + " outlived the runner", e);
                    }
                });
            }
            assertEquals(List.of(), registeredPids(dir), "the runner stopped every process it started");
        } finally {
            first.destroyForcibly();
        }
        CliRun second = CliRun.of("run", scenario.toString(), "--out", dir.toString(), "--no-install", "--no-report");
        assertEquals(0, second.code(), out + second.out() + second.err());
        assertEquals(3, finished(dir.resolve("campaign.duckdb")).size());
    }
}
