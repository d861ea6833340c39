package org.pacelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code pacelab sim}: a small run end to end, and bad input as one sentence with exit code 2. */
class SimCommandTest {
    @Test
    void aSmallRunWritesTheEmulatorsFilesAndTheSummary(@TempDir Path dir) {
        CliRun r = CliRun.of("sim", "--preset", "quic-steps", "--size", "1MiB", "--cc", "cubic", "--pacer", "interval", "--seed", "7",
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
        CliRun r = CliRun.of("sim", "--dc", "batch=50 ratio=1:1", "--path-a", "rate=10mbit queue=50p", "--path-b",
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
        CliRun batch = CliRun.of("sim", "--dc", "batch=x", "--out", dir.toString());
        assertEquals(2, batch.code());
        assertEquals("pacelab sim: --dc batch: 'x' is not a batch size; give a number of packets, e.g. 100", batch.err().strip());

        CliRun flows = CliRun.of("sim", "--flows", "dc,a", "--out", dir.toString());
        assertEquals(2, flows.code());
        assertTrue(flows.err().startsWith("pacelab sim: --flows: a and b (one path of two) need a dual-connectivity link"),
                flows.err());

        CliRun preset = CliRun.of("sim", "--dc", "batch=10", "--preset", "quic-steps", "--out", dir.toString());
        assertEquals(2, preset.code());
        assertTrue(preset.err().startsWith("pacelab sim: --preset does not apply with --dc"), preset.err());

        CliRun mode = CliRun.of("sim", "--dc", "batch=10", "--flows", "dc,c", "--out", dir.toString());
        assertEquals(2, mode.code());
        assertTrue(mode.err().startsWith("pacelab sim: --flows: 'c' is not a flow mode"), mode.err());
        assertEquals(1, mode.err().lines().count());

        CliRun duration = CliRun.of("sim", "--duration", "soon", "--out", dir.toString());
        assertEquals(2, duration.code());
        assertTrue(duration.err().startsWith("pacelab sim: --duration"), duration.err());
    }

    @Test
    void badInputIsOneSentenceAndExitTwo(@TempDir Path dir) {
        CliRun missing = CliRun.of("sim", "--size", "1MiB");
        assertEquals(2, missing.code());
        assertEquals("pacelab sim: --out DIR is required (where the run's files go).", missing.err().strip());

        CliRun combo = CliRun.of("sim", "--txtime", "--out", dir.toString());
        assertEquals(2, combo.code());
        assertEquals("pacelab sim: --txtime needs --qdisc fq or etf: pfifo ignores send times", combo.err().strip());

        CliRun qdisc = CliRun.of("sim", "--qdisc", "cake", "--out", dir.toString());
        assertEquals(2, qdisc.code());
        assertEquals("pacelab sim: --qdisc: 'cake' is not a modelled qdisc; valid: pfifo, fq, etf", qdisc.err().strip());

        CliRun pacer = CliRun.of("sim", "--pacer", "fast", "--out", dir.toString());
        assertEquals(2, pacer.code());
        assertTrue(pacer.err().startsWith("pacelab sim: --pacer: 'fast' is not a pacer"), pacer.err());
        assertEquals(1, pacer.err().lines().count());

        CliRun qlog = CliRun.of("sim", "--qlog-dir", dir.toString(), "--out", dir.toString());
        assertEquals(2, qlog.code());
        assertTrue(qlog.err().startsWith("pacelab sim: --qlog-dir and --keylog are for real endpoints"), qlog.err());
    }
}
