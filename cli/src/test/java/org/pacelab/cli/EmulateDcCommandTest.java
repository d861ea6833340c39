package org.pacelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code pacelab emulate --dc}: the resolved spec, and one sentence with exit code 2 for each kind of bad input. */
class EmulateDcCommandTest {
    private static CliRun dc(String... more) {
        String[] base = {"emulate", "--listen", "127.0.0.1:0", "--to", "127.0.0.1:9"};
        String[] all = new String[base.length + more.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return CliRun.of(all);
    }

    private static void assertOneSentence(CliRun r, String expected) {
        assertEquals(2, r.code(), r.err());
        assertEquals("pacelab emulate: " + expected, r.err().strip());
    }

    @Test
    void printsTheResolvedDualConnectivityLink() {
        CliRun r = dc("--dc", "batch=150 ratio=9:1", "--path-b", "rate=8mbit delay=30ms", "--up", "delay=20ms", "--print-spec");
        assertEquals(0, r.code(), r.err());
        assertEquals("""
                dc:        split=batch batch=150 ratio=9:1 t-reordering=200ms sn=18 wire=1gbit
                path a:    rate=20mbit queue=100p delay=10ms jitter=normal:cov=0.1 wire=off
                path b:    rate=8mbit queue=100p delay=30ms jitter=normal:cov=0.1 wire=off
                link up:   rate=unlimited queue=unlimited delay=20ms wire=off
                """, r.out());
    }

    @Test
    void theRelayTakesSinglePathFlowsInOrder() {
        CliRun r = dc("--dc", "batch=100 single-path=in-order", "--print-spec");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("dc:        split=batch batch=100 ratio=1:1 t-reordering=200ms single-path=in-order sn=18 "
                + "wire=1gbit\n"), r.out());
        assertOneSentence(dc("--dc", "single-path=held"), "--dc single-path: 'held' is not a single-path receiver; use "
                + "pass-through (delivered as the path delivers, the default) or in-order (held in PDCP order like split flows)");
    }

    @Test
    void ratiosThatDoNotParseOrSumToZero() {
        assertOneSentence(dc("--dc", "ratio=0:0"), "--dc ratio: '0:0' sums to zero, so no packet could be sent; at least "
                + "one side must be positive, e.g. 1:0 for path a only");
        assertOneSentence(dc("--dc", "ratio=9/1"), "--dc ratio: '9/1' is not a split ratio; write A:B with non-negative "
                + "numbers, e.g. 9:1, 1:1 or 0.7:0.3, or the share of path a as a percentage, e.g. 90%");
    }

    @Test
    void batchSizeZero() {
        assertOneSentence(dc("--dc", "batch=0"), "--dc batch: '0' must be at least 1 packet");
    }

    @Test
    void missingTraceFileLeavesNothingBehind(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("missing.down");
        CliRun r = dc("--dc", "ratio=1:1", "--path-b", "trace=" + trace, "--log", dir.resolve("e.bin").toString());
        assertOneSentence(r, "path b: trace file " + trace + " does not exist");
        try (var files = Files.list(dir)) {
            assertEquals(0, files.count(), "no partial event log is left");
        }
    }

    @Test
    void optionsThatDoNotGoTogether() {
        assertOneSentence(dc("--dc", "", "--down", "rate=10mbit"), "--down does not apply with --dc; give the two downlink "
                + "paths with --path-a and --path-b");
        assertOneSentence(dc("--dc", "", "--preset", "quic-steps"), "--preset does not apply with --dc; the paths are "
                + "--path-a and --path-b (or a.KEY=, b.KEY= in --dc) and the uplink is --up");
        assertOneSentence(dc("--path-a", "rate=10mbit"), "--path-a needs --dc (a dual-connectivity link); for one path use --down");
        assertOneSentence(dc("--route", "127.0.0.1:0=127.0.0.1:10@a"), "--route 127.0.0.1:0: @a needs --dc (a "
                + "dual-connectivity link)");
    }

    @Test
    void badRouteIsExitTwo() {
        CliRun r = dc("--dc", "", "--route", "127.0.0.1:0=127.0.0.1:10@c");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("'c' is not a flow mode; use dc"), r.err());
    }
}
