package org.pacelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad input to {@code pacelab interop}: one sentence naming the valid choices, exit 2, nothing run. */
class InteropCommandTest {
    @TempDir
    Path dir;

    @Test
    void unknownPeerListsTheValidOnes() {
        CliRun r = CliRun.of("interop", "--peers", "pacelab,msquic", "--cases", "handshake", "--out", dir.resolve("m").toString());
        assertEquals(2, r.code());
        assertEquals("pacelab interop: unknown peer 'msquic'; valid peers: pacelab, ngtcp2, quiche, kwik, picoquic, aioquic, quic-go", r.err().strip());
        assertFalse(Files.exists(dir.resolve("m")));
    }

    @Test
    void unknownCaseListsTheValidOnes() {
        CliRun r = CliRun.of("interop", "--cases", "handshake,zerort", "--out", dir.resolve("m").toString());
        assertEquals(2, r.code());
        assertTrue(r.err().strip().startsWith("pacelab interop: unknown test case 'zerort'; valid cases: none, handshake, transfer, longrtt, "),
                r.err());
        assertTrue(r.err().strip().endsWith("rebind-port, rebind-addr, connectionmigration"), r.err());
        assertEquals(1, r.err().strip().lines().count());
    }

    @Test
    void unknownRerunNameListsTheValidOnes() {
        CliRun r = CliRun.of("interop", "--cases", "handshake", "--rerun", "failed,handshak", "--out", dir.resolve("m").toString());
        assertEquals(2, r.code());
        assertTrue(r.err().strip().startsWith("pacelab interop: --rerun: unknown test case 'handshak'; valid: all, failed, handshake, "),
                r.err());
        assertEquals(1, r.err().strip().lines().count());
        assertFalse(Files.exists(dir.resolve("m")));
    }

    @Test
    void unknownOrUnavailableMeasurementIsOneSentenceWithTheValidOnes() {
        CliRun r = CliRun.of("interop", "--measurements", "goodput,goodputt", "--out", dir.resolve("m").toString());
        assertEquals(2, r.code());
        assertEquals("pacelab interop: --measurements: unknown measurement 'goodputt'; valid: none, goodput", r.err().strip());
        CliRun c = CliRun.of("interop", "--measurements", "crosstraffic", "--out", dir.resolve("m").toString());
        assertEquals(2, c.code());
        String err = c.err().strip();
        assertEquals(1, err.lines().count(), err);
        assertTrue(err.startsWith("pacelab interop: --measurements: crosstraffic needs the runner's iperf TCP flow"), err);
        assertTrue(err.endsWith("; valid: none, goodput"), err);
        CliRun n = CliRun.of("interop", "--cases", "none", "--measurements", "none", "--out", dir.resolve("m").toString());
        assertEquals(2, n.code());
        assertEquals("pacelab interop: nothing to run: --cases and --measurements name none", n.err().strip());
        CliRun z = CliRun.of("interop", "--measurements", "goodput", "--repetitions", "0", "--out", dir.resolve("m").toString());
        assertEquals(2, z.code());
        assertEquals("pacelab interop: --repetitions: '0' is not a whole number from 1 up; give how many times each measurement "
                + "repeats (default: the runner's, 5 for goodput)", z.err().strip());
        assertFalse(Files.exists(dir.resolve("m")));
    }

    @Test
    void jobsBelowOneOrNotAWholeNumberNamesTheValidRange() {
        for (String bad : new String[] {"0", "-2", "two", "1.5", ""}) {
            CliRun r = CliRun.of("interop", "--cases", "handshake", "--jobs", bad, "--out", dir.resolve("m").toString());
            assertEquals(2, r.code(), bad + ": " + r.err());
            String err = r.err().strip();
            assertEquals(1, err.lines().count(), err);
            String range = "; give how many cells run at once, 1 or more (default 1)";
            String expected = bad.equals("0") || bad.equals("-2")
                    ? "pacelab interop: --jobs: must be at least 1, got " + bad + range
                    : "pacelab interop: --jobs: '" + bad + "' is not a whole number" + range;
            assertEquals(expected, err);
            assertFalse(Files.exists(dir.resolve("m")), bad + ": nothing is made");
        }
    }

    @Test
    void jobsIsReadAsTheNumberOfCellsAtOnce() {
        InteropCommand command = new InteropCommand();
        new picocli.CommandLine(command).parseArgs("--jobs", "3");
        assertEquals(3, command.jobs);
        InteropCommand byDefault = new InteropCommand();
        new picocli.CommandLine(byDefault).parseArgs();
        assertEquals(1, byDefault.jobs, "one cell at a time unless asked");
    }

    @Test
    void missingTsharkAndABadDocumentAreOneSentence() throws Exception {
        CliRun r = CliRun.of("interop", "--tshark", dir.resolve("no-tshark").toString(), "--out", dir.resolve("m").toString());
        assertEquals(2, r.code());
        assertTrue(r.err().startsWith("pacelab interop: '" + dir.resolve("no-tshark") + "' was not found;"), r.err());
        Path doc = Files.writeString(dir.resolve("doc.md"), "# no markers\n");
        CliRun d = CliRun.of("interop", "--tshark", "/bin/true", "--update-doc", doc.toString(), "--out", dir.resolve("m").toString());
        assertEquals(2, d.code());
        assertTrue(d.err().startsWith("pacelab interop: --update-doc: " + doc + " has no line <!-- interop-matrix:begin"), d.err());
    }
}
