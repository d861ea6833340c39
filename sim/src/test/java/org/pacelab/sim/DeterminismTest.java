package org.pacelab.sim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.net.log.EventLogReader;
import org.pacelab.net.log.LogEvent;
import org.pacelab.sim.output.RunFiles;

/** Acceptance 1: the same scenario and seed give the same bytes; a different seed changes the random samples. */
class DeterminismTest {
    /**
     * The server's certificate is the same bytes whichever thread builds it (the CLI's sim process builds it on a
     * thread of its own while the options are parsed, Simulation.prepareInBackground), and the run after that
     * thread gives the same files as one without it.
     */
    @Test
    void theCertificateIsTheSameOnAnyThreadAndAPreparedRunTheSameBytes(@TempDir Path tmp) throws Exception {
        var here = Simulation.newIdentity();
        var other = new java.util.concurrent.atomic.AtomicReference<org.pacelab.io.tls.Certificates.Identity>();
        Thread t = Thread.ofPlatform().start(() -> other.set(Simulation.newIdentity()));
        t.join();
        assertArrayEquals(here.leaf().getEncoded(), other.get().leaf().getEncoded());
        assertArrayEquals(here.key().getEncoded(), other.get().key().getEncoded());

        Simulation.run(scenario(tmp.resolve("a"), 3));
        Simulation.prepareInBackground();
        Simulation.run(scenario(tmp.resolve("b"), 3));
        Map<String, byte[]> a = files(tmp.resolve("a"));
        Map<String, byte[]> b = files(tmp.resolve("b"));
        assertEquals(a.keySet(), b.keySet());
        for (String name : a.keySet()) {
            assertArrayEquals(a.get(name), b.get(name), name);
        }
    }

    private static SimScenario scenario(Path dir, long seed, String... extra) {
        Map<String, String> o = new LinkedHashMap<>();
        o.put("--size", "2MiB");
        o.put("--seed", Long.toString(seed));
        o.put("--down", "jitter=normal:cov=0.05 loss=0.2%");
        for (int i = 0; i < extra.length; i += 2) {
            o.put(extra[i], extra[i + 1]);
        }
        return SimOptions.parse(o, dir);
    }

    /** Every file of a run, by its name relative to the run directory, with its bytes. */
    private static Map<String, byte[]> files(Path dir) throws Exception {
        Map<String, byte[]> m = new LinkedHashMap<>();
        try (var walk = Files.walk(dir)) {
            for (Path p : walk.filter(Files::isRegularFile).sorted().toList()) {
                m.put(dir.relativize(p).toString(), Files.readAllBytes(p));
            }
        }
        return m;
    }

    private static void assertSameFiles(Map<String, byte[]> a, Map<String, byte[]> b) {
        assertEquals(a.keySet(), b.keySet());
        for (String name : a.keySet()) {
            assertArrayEquals(a.get(name), b.get(name), name + " differs");
        }
    }

    @Test
    void sameScenarioAndSeedGiveByteIdenticalOutputs(@TempDir Path dir) throws Exception {
        SimResult first = Simulation.run(scenario(dir.resolve("a"), 7));
        SimResult second = Simulation.run(scenario(dir.resolve("b"), 7));
        assertTrue(first.completed(), first.outcome());
        Map<String, byte[]> a = files(dir.resolve("a"));
        assertTrue(a.keySet().containsAll(List.of("tap.pcapng", "events.bin", "keys.log", "client.json", "summary.json",
                "packets.csv", "timeline.csv", "sim.json")), a.keySet().toString());
        assertTrue(a.keySet().stream().anyMatch(n -> n.startsWith("qlog/server-") && n.endsWith(".sqlog")), a.keySet().toString());
        assertSameFiles(a, files(dir.resolve("b")));
        assertEquals(first.counters(), second.counters());
    }

    @Test
    void runsOnParallelThreadsAreIndependent(@TempDir Path dir) throws Exception {
        Simulation.run(scenario(dir.resolve("alone"), 11, "--analyze", "off"));
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<SimResult>> runs = new ArrayList<>();
            for (String name : List.of("p1", "p2")) {
                runs.add(pool.submit(() -> Simulation.run(scenario(dir.resolve(name), 11, "--analyze", "off"))));
            }
            for (Future<SimResult> f : runs) {
                assertTrue(f.get().completed());
            }
        } finally {
            pool.shutdown();
        }
        Map<String, byte[]> alone = files(dir.resolve("alone"));
        assertSameFiles(alone, files(dir.resolve("p1")));
        assertSameFiles(alone, files(dir.resolve("p2")));
    }

    @Test
    void aDifferentSeedChangesTheRandomSamples(@TempDir Path dir) throws Exception {
        Simulation.run(scenario(dir.resolve("s1"), 1, "--analyze", "off"));
        Simulation.run(scenario(dir.resolve("s2"), 2, "--analyze", "off"));
        RunFiles s1 = new RunFiles(dir.resolve("s1"));
        RunFiles s2 = new RunFiles(dir.resolve("s2"));
        assertFalse(java.util.Arrays.equals(Files.readAllBytes(s1.tap()), Files.readAllBytes(s2.tap())));
        List<LogEvent> e1 = new ArrayList<>();
        List<LogEvent> e2 = new ArrayList<>();
        assertEquals(1, EventLogReader.read(s1.events(), e1::add).seed());
        assertEquals(2, EventLogReader.read(s2.events(), e2::add).seed());
        assertFalse(e1.equals(e2), "jitter and loss samples differ");
        // the scenario itself is the same: sim.json differs only in the seed, times and counters
        String j1 = Files.readString(s1.scenario()).replaceAll("(?s)\"seed\" : \\d+", "").replaceAll("(?s)\"virtual_end_ns.*", "");
        String j2 = Files.readString(s2.scenario()).replaceAll("(?s)\"seed\" : \\d+", "").replaceAll("(?s)\"virtual_end_ns.*", "");
        assertEquals(j1, j2);
    }
}
