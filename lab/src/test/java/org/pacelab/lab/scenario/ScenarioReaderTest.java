package org.pacelab.lab.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

class ScenarioReaderTest {
    private static final String GOOD = """
            name: demo
            reproduces: Table 1
            mode: relay
            link:
              preset: quic-steps
              down: {queue: 100p, delay: 10ms}
              up: "delay=5ms"
            transfer: {size: 5MiB, streams: 2}
            repetitions: 3
            seed: 7
            timeout: 90s
            implementations:
              - pacelab
              - name: ng
                server: ngtcp2
                client: ngtcp2
                mode: [relay, netns]
                options: {cc: cubic}
                server-options: {gso: 16}
            sweep:
              cc: [cubic, newreno]
              link.down.queue: [50p, 143p]
            collect: {keep: failed, packets: off}
            """;

    private static String problem(String yaml) {
        ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioReader.parse("s.yaml", yaml));
        return e.getMessage();
    }

    @Test
    void readsEveryPart() throws ScenarioException {
        Scenario s = ScenarioReader.parse("s.yaml", GOOD);
        assertEquals("demo", s.name());
        assertEquals("Table 1", s.reproduces());
        assertEquals(List.of(Mode.RELAY), s.modes().stream().map(Located::value).toList());
        assertEquals("quic-steps", s.preset().value());
        assertEquals("100p", s.linkDown().get("queue").value());
        assertEquals("10ms", s.linkDown().get("delay").value());
        assertEquals("5ms", s.linkUp().get("delay").value());
        assertEquals(5L << 20, s.transfer().value().bytesPerStream());
        assertEquals(2, s.transfer().value().streams());
        assertEquals(List.of(7L, 8L, 9L), s.seeds());
        assertEquals(90_000_000_000L, s.timeoutNs());
        assertEquals(2, s.implementations().size());
        Implementation shorthand = s.implementations().get(0);
        assertEquals("pacelab", shorthand.server().value());
        assertEquals("pacelab", shorthand.client().value());
        Implementation ng = s.implementations().get(1);
        assertEquals("ng", ng.name().value());
        assertEquals(List.of(Mode.RELAY, Mode.NETNS), ng.modes().stream().map(Located::value).toList());
        assertEquals("16", ng.serverOptions().get("gso").value());
        assertEquals(new Location("s.yaml", 19, 27), ng.serverOptions().get("gso").at());
        assertEquals(2, s.sweep().size());
        assertEquals("link.down.queue", s.sweep().get(1).key().value());
        assertEquals(Collect.Keep.FAILED, s.collect().keep());
        assertFalse(s.collect().packets());
        assertTrue(s.collect().tap());
        assertFalse(s.skipUnavailable());
    }

    private static final String WITH_QUICK = """
            name: grid
            mode: sim
            repetitions: 5
            implementations: [pacelab]
            sweep:
              - {link.down.rate: [10mbit, 40mbit]}
              - {link.down.trace: [a.down]}
            quick:
              repetitions: 1
              sweep: {link.down.rate: [40mbit]}
            """;

    @Test
    void theQuickSectionReplacesItsKeysAndRenamesTheCampaign() throws ScenarioException {
        Scenario full = ScenarioReader.parse("g.yaml", WITH_QUICK);
        assertEquals("grid", full.name());
        assertEquals(5, full.repetitions());
        assertEquals(List.of(0, 1), full.sweep().stream().map(SweepAxis::grid).toList());
        Scenario quick = ScenarioReader.parse("g.yaml", WITH_QUICK, true);
        assertEquals("grid-quick", quick.name());
        assertEquals(1, quick.repetitions());
        assertEquals(1, quick.sweep().size());
        assertEquals(List.of("40mbit"), quick.sweep().getFirst().values().stream().map(Located::value).toList());
        assertEquals(new Location("g.yaml", 10, 28), quick.sweep().getFirst().values().getFirst().at(), "where the quick value is");
    }

    @Test
    void quickAndSweepListsAreChecked() {
        assertEquals("g.yaml:1:1: --quick: this scenario has no quick section (a mapping of scenario keys, e.g. {repetitions: 1, "
                + "sweep: ...}, that replace the file's for a short run); run it without --quick",
                assertThrows(ScenarioException.class, () -> ScenarioReader.parse("g.yaml", "implementations: [pacelab]\n", true))
                        .getMessage());
        String m = problem("implementations: [pacelab]\nquick: {name: x, repetitons: 1}\n");
        assertTrue(m.contains("s.yaml:2:9: unknown key 'name' in quick"), m);
        assertTrue(m.contains("did you mean 'repetitions'"), m);
        String l = problem("implementations: [pacelab]\nsweep:\n  - {cc: [cubic]}\n  - bbr\n");
        assertTrue(l.contains("s.yaml:4:5: sweep[1] must be a mapping of axes"), l);
    }

    @Test
    void nameDefaultsToTheFileName() throws ScenarioException {
        assertEquals("quic-steps-baseline", ScenarioReader.parse("scenarios/quic-steps-baseline.yaml", "implementations: [pacelab]").name());
    }

    @Test
    void typoedKeyGetsItsPlaceASuggestionAndTheValidKeys() {
        String m = problem("name: x\ntranfser: {size: 1MiB}\nimplementations: [pacelab]\n");
        assertTrue(m.startsWith("s.yaml:2:1: unknown key 'tranfser' in the scenario (did you mean 'transfer'?); valid keys: name, "), m);
        assertTrue(m.contains("implementations"), m);
        assertEquals(1, m.lines().count());
    }

    @Test
    void typoInsideASectionNamesTheSection() {
        String m = problem("link:\n  presett: quic-steps\nimplementations: [pacelab]\n");
        assertEquals("s.yaml:2:3: unknown key 'presett' in link (did you mean 'preset'?); valid keys: preset, down, up, dc", m);
    }

    @Test
    void wrongUnitNamesTheKeyAndTheValidUnits() {
        String m = problem("transfer: {size: 10MB/s}\nimplementations: [pacelab]\n");
        assertTrue(m.startsWith("s.yaml:1:18: transfer.size: '10MB/s' is not a size; use a number with b, kb"), m);
    }

    @Test
    void unknownLinkFieldGetsASuggestion() {
        String m = problem("link: {preset: quic-steps, down: {rat: 40mbit}}\nimplementations: [pacelab]\n");
        assertTrue(m.startsWith("s.yaml:1:35: unknown key 'rat' in link.down (did you mean 'rate'?); valid keys: rate, burst"), m);
        String s = problem("link: {down: \"rate=40mbit qeue=10p\"}\nimplementations: [pacelab]\n");
        assertTrue(s.contains("unknown key 'qeue' in link.down (did you mean 'queue'?)"), s);
    }

    @Test
    void unknownModeListsTheModes() {
        String m = problem("mode: realy\nimplementations: [pacelab]\n");
        assertEquals("s.yaml:1:7: mode: 'realy' is not a mode (did you mean 'relay'?); valid modes: relay, netns, sim, direct", m);
    }

    @Test
    void missingImplementationsIsAnError() {
        assertEquals("s.yaml:1:1: the scenario has no implementations; add e.g. 'implementations: [pacelab]'", problem("name: x\n"));
    }

    @Test
    void seedsMustMatchRepetitions() {
        String m = problem("repetitions: 3\nseeds: [1, 2]\nimplementations: [pacelab]\n");
        assertEquals("s.yaml:2:1: seeds lists 2 seed(s) but repetitions is 3; give one seed per repetition", m);
    }

    @Test
    void explicitSeedsSetTheRepetitions() throws ScenarioException {
        Scenario s = ScenarioReader.parse("s.yaml", "seeds: [5, 9]\nimplementations: [pacelab]\n");
        assertEquals(2, s.repetitions());
        assertEquals(List.of(5L, 9L), s.seeds());
    }

    @Test
    void repetitionsOutOfRange() {
        assertEquals("s.yaml:1:14: repetitions: 0 is out of range; valid: 1 to 10000", problem("repetitions: 0\nimplementations: [pacelab]\n"));
        assertTrue(problem("repetitions: three\nimplementations: [pacelab]\n").contains("'three' is not a whole number"));
    }

    @Test
    void severalProblemsAreReportedTogetherOnePerLine() {
        String m = problem("nmae: x\nrepetitions: 0\n");
        assertEquals(3, m.lines().count(), m);
    }

    @Test
    void sweepValuesMustBeDistinct() {
        String m = problem("sweep: {cc: [cubic, cubic]}\nimplementations: [pacelab]\n");
        assertEquals("s.yaml:1:21: sweep.cc: value 'cubic' appears twice", m);
    }

    /** Each repetition is one problem at its place; thousands stay quick (fuzz audit: comparing every pair was cubic). */
    @Test
    void eachRepeatedSweepValueIsOneProblem() {
        assertEquals(List.of("s.yaml:1:30: sweep.cc: value 'cubic' appears twice", "s.yaml:1:37: sweep.cc: value 'cubic' appears twice"),
                problem("sweep: {cc: [cubic, newreno, cubic, cubic]}\nimplementations: [pacelab]\n").lines().toList());
        String many = problem("implementations: [pacelab]\nsweep: {cc: [" + "a,".repeat(2000) + "a]}\n");
        assertEquals(2000, many.lines().count());
        assertTrue(many.startsWith("s.yaml:2:16: sweep.cc: value 'a' appears twice\n"), many.substring(0, 80));
    }

    @Test
    void unavailableTakesFailOrSkip() throws ScenarioException {
        assertTrue(ScenarioReader.parse("s.yaml", "unavailable: skip\nimplementations: [pacelab]\n").skipUnavailable());
        assertEquals("s.yaml:1:14: unavailable: 'skipp' is not valid (did you mean 'skip'?); valid values: fail, skip",
                problem("unavailable: skipp\nimplementations: [pacelab]\n"));
    }

    @Test
    void overridesChangeRepetitionsAndSize() throws ScenarioException {
        Scenario s = ScenarioReader.parse("s.yaml", "seed: 3\nrepetitions: 2\nimplementations: [pacelab]\n");
        Scenario r = ScenarioOverrides.withRepetitions(s, 4);
        assertEquals(List.of(3L, 4L, 5L, 6L), r.seeds());
        assertEquals(1 << 20, ScenarioOverrides.withSize(s, 1 << 20).transfer().value().bytesPerStream());
        Scenario two = ScenarioReader.parse("s.yaml", "implementations: [pacelab, ngtcp2]\n");
        assertEquals(List.of("ngtcp2"), ScenarioOverrides.only(two, List.of("ngtcp2")).implementations().stream()
                .map(i -> i.name().value()).toList());
        ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioOverrides.only(two, List.of("ngtpc2")));
        assertEquals("--only: s.yaml has no implementation named 'ngtpc2' (did you mean 'ngtcp2'?); its implementations: pacelab, ngtcp2",
                e.getMessage());
        Scenario explicit = ScenarioReader.parse("s.yaml", "seeds: [9, 2]\nimplementations: [pacelab]\n");
        assertThrows(ScenarioException.class, () -> ScenarioOverrides.withRepetitions(explicit, 3));
    }

    @Test
    void hostSetupIsAutoUnlessTheFileSaysOtherwise() throws ScenarioException {
        assertEquals(HostSetup.AUTO, ScenarioReader.parse("s.yaml", GOOD).hostSetup().value());
        assertEquals(HostSetup.OFF, ScenarioReader.parse("s.yaml", "host-setup: off\n" + GOOD).hostSetup().value());
        assertEquals("s.yaml:1:13: host-setup: 'offf' is not valid (did you mean 'off'?); valid values: auto (real-time scheduling "
                + "when root, the default), on, off", problem("host-setup: offf\n" + GOOD));
    }

    @Test
    void runOrderIsGroupedUnlessTheFileOrTheCommandLineSaysInterleaved() throws ScenarioException {
        assertEquals(RunOrder.GROUPED, ScenarioReader.parse("s.yaml", GOOD).order().value());
        Scenario file = ScenarioReader.parse("s.yaml", "order: interleaved\n" + GOOD);
        assertEquals(RunOrder.INTERLEAVED, file.order().value());
        assertEquals(RunOrder.GROUPED, ScenarioOverrides.withOrder(file, RunOrder.GROUPED).order().value());
        assertEquals("s.yaml:1:8: order: 'interleave' is not a run order (did you mean 'interleaved'?); valid values: grouped "
                + "(every repetition of one configuration, then the next; the default), interleaved (repetition 1 of every "
                + "configuration, then repetition 2, ...)", problem("order: interleave\n" + GOOD));
    }
}
