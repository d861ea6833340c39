package org.pacelab.sim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.net.dc.DcFlowMode;
import org.pacelab.net.link.Direction;
import org.pacelab.net.link.EventType;
import org.pacelab.net.log.EventLogReader;
import org.pacelab.net.log.LogEvent;

/**
 * The dual-connectivity link in the simulator: a split transfer arrives whole over both paths in the ratio asked,
 * several client/server pairs share the link (dc, a, b), and the same seed gives the same bytes.
 */
class DualConnectivitySimulationTest {
    private static SimScenario scenario(Path dir, String... options) {
        Map<String, String> o = new LinkedHashMap<>();
        for (int i = 0; i < options.length; i += 2) {
            o.put(options[i], options[i + 1]);
        }
        return SimOptions.parse(o, dir);
    }

    /** Per flow: packets that left each path's rate limiter (DEQUEUE on the downlink, by path index). */
    private static Map<Integer, long[]> dequeuedPerPath(Path events) throws Exception {
        Map<Integer, long[]> m = new HashMap<>();
        EventLogReader.read(events, (LogEvent e) -> {
            if (e.direction() == Direction.DOWN && e.type() == EventType.DEQUEUE && e.path() < 2) {
                m.computeIfAbsent(e.flow(), f -> new long[2])[e.path()]++;
            }
        });
        return m;
    }

    @Test
    void aSplitTransferArrivesWholeOverBothPathsInTheRatioAsked(@TempDir Path dir) throws Exception {
        SimResult r = Simulation.run(scenario(dir, "--dc", "batch=20 ratio=3:1", "--path-a", "rate=20mbit",
                "--path-b", "rate=20mbit delay=15ms", "--size", "3MiB", "--seed", "5"));
        assertTrue(r.completed(), r.outcome());
        assertEquals(3L << 20, r.transferBytes());
        assertEquals(1, r.flows().size());
        assertEquals(DcFlowMode.DUAL, r.flows().getFirst().mode());
        assertNull(r.analysis(), "a dual-connectivity run is measured from its event log");
        long[] packets = dequeuedPerPath(r.files().events()).get(1);
        double shareA = (double) packets[0] / (packets[0] + packets[1]);
        assertTrue(shareA > 0.72 && shareA < 0.78, "share of path a " + shareA + " (" + packets[0] + " : " + packets[1] + ")");
        // the reordering receiver handed every packet that reached it to the client, in COUNT order
        long[] counts = new long[EventType.values().length];
        EventLogReader.Result log = EventLogReader.read(r.files().events(), (LogEvent e) -> {
            if (e.direction() == Direction.DOWN) counts[e.type().ordinal()]++;
        });
        assertTrue(counts[EventType.REORDER_HOLD.ordinal()] > 0, "the faster path's batches waited for the slower one's");
        assertEquals(counts[EventType.DELIVER.ordinal()], counts[EventType.REORDER_RELEASE.ordinal()]
                + counts[EventType.REORDER_DISCARD.ordinal()]);
        assertTrue(log.flows().get(1).endsWith(" path=dc"), log.flows().toString());
        assertTrue(Files.readString(r.files().scenario()).contains("\"dc\" : \"split=batch batch=20 ratio=3:1"));
    }

    @Test
    void threePairsShareTheLinkEachOnItsPaths(@TempDir Path dir) throws Exception {
        SimResult r = Simulation.run(scenario(dir, "--dc", "batch=50 rate=10mbit queue=50p", "--flows", "dc,a,b",
                "--duration", "3s", "--seed", "3"));
        assertTrue(r.completed(), r.outcome());
        assertEquals(3, r.flows().size());
        assertEquals(List.of(DcFlowMode.DUAL, DcFlowMode.PATH_A, DcFlowMode.PATH_B),
                r.flows().stream().map(SimResult.FlowResult::mode).toList());
        for (SimResult.FlowResult f : r.flows()) {
            assertTrue(f.completed(), f.outcome());
            assertTrue(f.bodyBytes() > 100_000, "flow " + f.flow() + " received " + f.bodyBytes());
            assertEquals(SimScenario.DEFAULT_CLIENT.getPort() + f.flow() - 1, f.client().getPort());
            assertTrue(Files.isRegularFile(r.files().flowClientLog(f.flow())));
        }
        Map<Integer, long[]> perPath = dequeuedPerPath(r.files().events());
        assertTrue(perPath.get(1)[0] > 0 && perPath.get(1)[1] > 0, "the dc flow uses both paths");
        assertEquals(0, perPath.get(2)[1], "the path-a flow stays on path a");
        assertEquals(0, perPath.get(3)[0], "the path-b flow stays on path b");
        // a fixed-duration client closes at the duration: the run ends shortly after it
        assertTrue(r.clientNanos() >= 3_000_000_000L && r.clientNanos() < 4_000_000_000L, "client end " + r.clientNanos());
    }

    @Test
    void eachPairMayHaveItsOwnServer(@TempDir Path dir) throws Exception {
        String[] o = {"--dc", "batch=50 rate=10mbit queue=50p", "--flows", "dc,a,b", "--duration", "3s", "--seed", "3"};
        SimResult shared = Simulation.run(scenario(dir.resolve("shared"), o));
        String[] perFlowOptions = java.util.Arrays.copyOf(o, o.length + 2);
        perFlowOptions[o.length] = "--servers";
        perFlowOptions[o.length + 1] = "per-flow";
        SimResult perFlow = Simulation.run(scenario(dir.resolve("per-flow"), perFlowOptions));
        assertTrue(perFlow.completed(), perFlow.outcome());
        for (SimResult.FlowResult f : perFlow.flows()) {
            assertTrue(f.completed(), f.outcome());
            assertTrue(f.bodyBytes() > 100_000, "flow " + f.flow() + " received " + f.bodyBytes());
        }
        // three server hosts, each with its own loop and socket, each serving its one client (Simulation refuses a
        // server sending to another pair's client)
        for (String server : List.of("server", "server-2", "server-3")) {
            assertTrue(perFlow.counters().get(server + "_datagrams_sent") > 100, server + " " + perFlow.counters());
            assertTrue(perFlow.counters().get(server + "_datagrams_received") > 10, server + " " + perFlow.counters());
        }
        assertFalse(shared.counters().containsKey("server-2_datagrams_sent"), shared.counters().toString());
        long sentShared = shared.counters().get("server_datagrams_sent");
        assertTrue(sentShared > perFlow.counters().get("server_datagrams_sent"), "the shared server sends every pair's packets");
        assertTrue(Files.readString(perFlow.files().scenario()).contains("\"servers\" : \"per-flow\""));
        assertTrue(Files.readString(shared.files().scenario()).contains("\"servers\" : \"shared\""));
    }

    /**
     * One server for the three flows serves no flow first in every turn: with a fixed order (the order the server
     * accepted them) the first flow's packets reached the full queues first and the last one's were dropped, and the
     * dual-connected flow got 9.22 Mbit/s listed first against 3.96 listed last (0.43) over these 20 s; starting
     * each turn one connection further along ({@code ServiceOrder}) gives 7.19 and 5.86 (0.82).
     */
    @Test
    void aSharedServerFavoursNoFlowByTheOrderItAcceptedThem(@TempDir Path dir) throws Exception {
        double[] dcFlow = new double[2];
        String[] orders = {"dc,a,b", "a,b,dc"};
        for (int i = 0; i < 2; i++) {
            SimResult r = Simulation.run(scenario(dir.resolve("order-" + i), "--dc", "batch=100 ratio=1:1 t-reordering=200ms",
                    "--path-a", "rate=20mbit delay=10ms jitter=normal:cov=0.1 queue=100p",
                    "--path-b", "rate=20mbit delay=10ms jitter=normal:cov=0.1 queue=100p", "--up", "delay=10ms",
                    "--flows", orders[i], "--duration", "20s", "--seed", "1", "--tap", "off", "--qlog", "off"));
            assertTrue(r.completed(), r.outcome());
            for (SimResult.FlowResult f : r.flows()) {
                if (f.mode() == DcFlowMode.DUAL) {
                    dcFlow[i] = f.bodyBytes();
                }
            }
        }
        double lastOverFirst = dcFlow[1] / dcFlow[0];
        assertTrue(lastOverFirst > 0.7 && lastOverFirst < 1.0 / 0.7,
                "the dual-connected flow listed last got " + lastOverFirst + " of what it got listed first");
    }

    @Test
    void oneServerPerFlowIsTheSharedServerWhenThereIsOnePair(@TempDir Path dir) throws Exception {
        String[] o = {"--dc", "batch=20 rate=10mbit", "--duration", "1500ms", "--seed", "4", "--servers", "shared"};
        Simulation.run(scenario(dir.resolve("shared"), o));
        o[o.length - 1] = "per-flow";
        Simulation.run(scenario(dir.resolve("per-flow"), o));
        for (String name : List.of("events.bin", "keys.log", "tap.pcapng", "client.json")) {
            assertArrayEquals(Files.readAllBytes(dir.resolve("shared").resolve(name)),
                    Files.readAllBytes(dir.resolve("per-flow").resolve(name)), name + " differs");
        }
    }

    @Test
    void aFlowWithALaterStartSendsItsFirstPacketThenAndDownloadsForTheDurationFromThere(@TempDir Path dir) throws Exception {
        SimResult r = Simulation.run(scenario(dir, "--dc", "batch=50 rate=10mbit queue=50p", "--flows", "dc,a,b",
                "--flow-starts", "1500ms,0s,0s", "--duration", "3s", "--seed", "3"));
        assertTrue(r.completed(), r.outcome());
        Map<Integer, Long> first = new HashMap<>();
        EventLogReader.read(r.files().events(), (LogEvent e) -> {
            if (e.type() == EventType.ENQUEUE || e.type() == EventType.DEQUEUE) {
                first.merge(e.flow(), e.time(), Math::min);
            }
        });
        assertEquals(3, first.size(), first.toString());
        long late = first.get(1) - Math.min(first.get(2), first.get(3));
        assertTrue(late >= 1_500_000_000L && late < 1_600_000_000L, "flow 1's first packet " + late + " ns after the others'");
        for (SimResult.FlowResult f : r.flows()) {
            assertTrue(f.completed(), f.outcome());
            assertTrue(f.bodyBytes() > 100_000, "flow " + f.flow() + " received " + f.bodyBytes());
        }
        // each client closes its duration after its own start
        assertTrue(r.flows().get(0).endNanos() >= 4_500_000_000L, "flow 1 ended at " + r.flows().get(0).endNanos());
        assertTrue(r.flows().get(1).endNanos() < 4_000_000_000L, "flow 2 ended at " + r.flows().get(1).endNanos());
        String json = Files.readString(r.files().scenario());
        assertTrue(json.replaceAll("\\s", "").contains("\"flow_starts_ns\":[1500000000,0,0]"), json);
    }

    @Test
    void startOffsetsOfZeroAreTheDefault(@TempDir Path dir) throws Exception {
        String[] o = {"--dc", "batch=20 rate=10mbit", "--flows", "dc,a", "--duration", "1500ms", "--seed", "4",
                "--flow-starts", "0s,0"};
        Simulation.run(scenario(dir.resolve("zero"), o));
        Simulation.run(scenario(dir.resolve("default"), java.util.Arrays.copyOf(o, o.length - 2)));
        for (String name : List.of("events.bin", "keys.log", "tap.pcapng", "flow-1/client.json", "flow-2/client.json")) {
            assertArrayEquals(Files.readAllBytes(dir.resolve("zero").resolve(name)),
                    Files.readAllBytes(dir.resolve("default").resolve(name)), name + " differs");
        }
    }

    @Test
    void theSameSeedGivesTheSameBytes(@TempDir Path dir) throws Exception {
        String[] o = {"--dc", "batch=30 rate=10mbit:5mbit loss=0.5%", "--flows", "3", "--duration", "1500ms",
                "--seed", "9"};
        Simulation.run(scenario(dir.resolve("a"), o));
        Simulation.run(scenario(dir.resolve("b"), o));
        Map<String, byte[]> a = files(dir.resolve("a"));
        Map<String, byte[]> b = files(dir.resolve("b"));
        assertTrue(a.keySet().containsAll(List.of("tap.pcapng", "events.bin", "sim.json", "keys.log", "flow-1/client.json",
                "flow-2/client.json", "flow-3/client.json")), a.keySet().toString());
        assertEquals(a.keySet(), b.keySet());
        for (String name : a.keySet()) {
            assertArrayEquals(a.get(name), b.get(name), name + " differs");
        }
        Simulation.run(scenario(dir.resolve("c"), "--dc", "batch=30 rate=10mbit:5mbit loss=0.5%", "--flows", "3",
                "--duration", "1500ms", "--seed", "10"));
        assertFalse(java.util.Arrays.equals(a.get("events.bin"), Files.readAllBytes(dir.resolve("c/events.bin"))));
    }

    @Test
    void aCountOfFlowsIsTheFairnessSetupOnADcLinkAndPlainPairsOnOnePath(@TempDir Path dir) {
        assertEquals(List.of(DcFlowMode.DUAL, DcFlowMode.PATH_A, DcFlowMode.PATH_B, DcFlowMode.DUAL),
                scenario(dir, "--dc", "batch=10", "--flows", "4").flows());
        SimScenario plain = scenario(dir, "--flows", "2");
        assertEquals(List.of(DcFlowMode.DUAL, DcFlowMode.DUAL), plain.flows());
        assertNull(plain.dc());
        assertTrue(plain.multiFlowOrDc());
    }

    @Test
    void badFlowAndLinkOptionsAreOneClearSentence(@TempDir Path dir) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> scenario(dir, "--flows", "dc,a"));
        assertTrue(e.getMessage().contains("need a dual-connectivity link (--dc)"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> scenario(dir, "--dc", "batch=10", "--flows", "dc,c"));
        assertTrue(e.getMessage().startsWith("--flows: 'c' is not a flow mode"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> scenario(dir, "--dc", "batch=10", "--down", "rate=1mbit"));
        assertTrue(e.getMessage().startsWith("--down does not apply with --dc"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> scenario(dir, "--path-a", "rate=1mbit"));
        assertTrue(e.getMessage().startsWith("--path-a needs --dc"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> scenario(dir, "--dc", "batch=x"));
        assertTrue(e.getMessage().contains("batch"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> scenario(dir, "--duration", "10s", "--timeout", "5s"));
        assertTrue(e.getMessage().startsWith("--duration: 10.0 s is not shorter than --timeout"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> scenario(dir, "--dc", "batch=10", "--flows", "3",
                "--servers", "each"));
        assertTrue(e.getMessage().startsWith("--servers: 'each' is not a server layout; valid: shared, per-flow"),
                e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> scenario(dir, "--dc", "batch=10", "--flows", "dc,a,b",
                "--flow-starts", "0s,2s"));
        assertEquals("--flow-starts: 2 start offsets for 3 flows; give one per entry of --flows, in its order (e.g. 0s,2s,2s "
                + "for dc,a,b)", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> scenario(dir, "--dc", "batch=10", "--flows", "dc,a,b",
                "--flow-starts", "-2s,0s,0s"));
        assertTrue(e.getMessage().startsWith("--flow-starts: '-2s' is negative; valid: a time of 0 or later per flow"),
                e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> scenario(dir, "--dc", "batch=10", "--flows", "dc,a,b",
                "--flow-starts", "0s,2,2s"));
        assertEquals("--flow-starts: '2' is not a time; use a number with ns, us, ms or s, e.g. 20ms", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> scenario(dir, "--dc", "batch=10", "--flows", "dc,a,b",
                "--flow-starts", "0s,,2s"));
        assertTrue(e.getMessage().startsWith("--flow-starts: '0s,,2s' has an empty entry"), e.getMessage());
    }

    private static Map<String, byte[]> files(Path dir) throws Exception {
        Map<String, byte[]> m = new LinkedHashMap<>();
        try (var walk = Files.walk(dir)) {
            for (Path p : walk.filter(Files::isRegularFile).sorted().toList()) {
                m.put(dir.relativize(p).toString(), Files.readAllBytes(p));
            }
        }
        return m;
    }
}
