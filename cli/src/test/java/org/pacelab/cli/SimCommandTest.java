package org.pacelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code pacelab sim}: a small run end to end, and bad input as one sentence with exit code 2. */
class SimCommandTest {
    private record Run(int code, String out, String err) { }

    private static Run run(String... args) {
        PrintStream oldOut = System.out, oldErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            int code = Main.run(args);
            return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }

    @Test
    void aSmallRunWritesTheEmulatorsFilesAndTheSummary(@TempDir Path dir) {
        Run r = run("sim", "--preset", "quic-steps", "--size", "1MiB", "--cc", "cubic", "--pacer", "interval", "--seed", "7",
                "--out", dir.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("all 1 downloads completed;"), r.out());
        assertTrue(r.out().contains("goodput_app_mbps"), r.out());
        for (String f : new String[] {"tap.pcapng", "events.bin", "keys.log", "client.json", "summary.json", "packets.csv",
                "timeline.csv", "sim.json"}) {
            assertTrue(Files.isRegularFile(dir.resolve(f)), f);
        }
    }

    @Test
    void aDualConnectivityFairnessRunIsMeasuredFromItsEventLog(@TempDir Path dir) throws Exception {
        Run r = run("sim", "--dc", "batch=50 ratio=1:1", "--path-a", "rate=10mbit queue=50p", "--path-b",
                "rate=10mbit queue=50p", "--flows", "dc,a,b", "--duration", "3s", "--tap", "off", "--qlog", "off",
                "--out", dir.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("all 3 flows downloaded for 3.0 s;"), r.out());
        assertTrue(r.out().contains("flow 2 (a) client 10.77.2.1:50001: "), r.out());
        assertTrue(r.out().contains("JFI "), r.out());
        for (String f : new String[] {"events.bin", "keys.log", "flow-1/client.json", "flow-3/client.json", "sim.json",
                "summary.json", "dc-summary.json", "dc-timeline.csv", "dc-report.html"}) {
            assertTrue(Files.isRegularFile(dir.resolve(f)), f);
        }
        assertTrue(Files.notExists(dir.resolve("tap.pcapng")));
        String summary = Files.readString(dir.resolve("summary.json"));
        assertTrue(summary.contains("\"jfi\"") && summary.contains("\"flow_mbps\" : \"dc="), summary);
    }

    @Test
    void badDualConnectivityInputIsOneSentenceAndExitTwo(@TempDir Path dir) {
        Run batch = run("sim", "--dc", "batch=x", "--out", dir.toString());
        assertEquals(2, batch.code());
        assertEquals("pacelab sim: --dc batch: 'x' is not a batch size; give a number of packets, e.g. 100", batch.err().strip());

        Run flows = run("sim", "--flows", "dc,a", "--out", dir.toString());
        assertEquals(2, flows.code());
        assertTrue(flows.err().startsWith("pacelab sim: --flows: a and b (one path of two) need a dual-connectivity link"),
                flows.err());

        Run preset = run("sim", "--dc", "batch=10", "--preset", "quic-steps", "--out", dir.toString());
        assertEquals(2, preset.code());
        assertTrue(preset.err().startsWith("pacelab sim: --preset does not apply with --dc"), preset.err());

        Run mode = run("sim", "--dc", "batch=10", "--flows", "dc,c", "--out", dir.toString());
        assertEquals(2, mode.code());
        assertTrue(mode.err().startsWith("pacelab sim: --flows: 'c' is not a flow mode"), mode.err());
        assertEquals(1, mode.err().lines().count());

        Run duration = run("sim", "--duration", "soon", "--out", dir.toString());
        assertEquals(2, duration.code());
        assertTrue(duration.err().startsWith("pacelab sim: --duration"), duration.err());
    }

    @Test
    void badInputIsOneSentenceAndExitTwo(@TempDir Path dir) {
        Run missing = run("sim", "--size", "1MiB");
        assertEquals(2, missing.code());
        assertEquals("pacelab sim: --out DIR is required (where the run's files go).", missing.err().strip());

        Run combo = run("sim", "--txtime", "--out", dir.toString());
        assertEquals(2, combo.code());
        assertEquals("pacelab sim: --txtime needs --qdisc fq or etf: pfifo ignores send times", combo.err().strip());

        Run qdisc = run("sim", "--qdisc", "cake", "--out", dir.toString());
        assertEquals(2, qdisc.code());
        assertEquals("pacelab sim: --qdisc: 'cake' is not a modelled qdisc; valid: pfifo, fq, etf", qdisc.err().strip());

        Run pacer = run("sim", "--pacer", "fast", "--out", dir.toString());
        assertEquals(2, pacer.code());
        assertTrue(pacer.err().startsWith("pacelab sim: --pacer: 'fast' is not a pacer"), pacer.err());
        assertEquals(1, pacer.err().lines().count());

        Run qlog = run("sim", "--qlog-dir", dir.toString(), "--out", dir.toString());
        assertEquals(2, qlog.code());
        assertTrue(qlog.err().startsWith("pacelab sim: --qlog-dir and --keylog are for real endpoints"), qlog.err());
    }
}
