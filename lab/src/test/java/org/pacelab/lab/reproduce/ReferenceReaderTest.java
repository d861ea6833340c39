package org.pacelab.lab.reproduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.lab.reproduce.StudyReference.Kind;
import org.pacelab.lab.scenario.ScenarioException;

class ReferenceReaderTest {
    @TempDir
    Path dir;

    private static final String HEAD = """
            study: test
            title: A study
            citation: Someone, somewhere, 2025
            campaigns:
              base: {scenario: s.yaml, quick: {repetitions: 1, mode: [sim]}}
            claims:
            """;

    @BeforeEach
    void scenario() throws IOException {
        Files.writeString(dir.resolve("s.yaml"), "implementations: [pacelab]\n");
    }

    private StudyReference read(String claims) throws ScenarioException, IOException {
        Path f = dir.resolve("ref.yaml");
        Files.writeString(f, HEAD + claims);
        return ReferenceReader.read(f);
    }

    /** The single problem of a refused file. */
    private String problem(String claims) throws IOException {
        ScenarioException e = assertThrows(ScenarioException.class, () -> read(claims));
        assertEquals(1, e.problems().size(), e.problems().toString());
        return e.problems().getFirst();
    }

    @Test
    void theShippedReferenceFilesAreValid() throws Exception {
        List<Path> files;
        try (Stream<Path> s = Files.list(Path.of("..", "studies"))) {
            files = s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        }
        assertTrue(files.size() >= 3, files.toString());
        Set<String> studies = new HashSet<>();
        for (Path f : files) {
            StudyReference r = ReferenceReader.read(f);
            assertTrue(studies.add(r.id()), "study id used twice: " + r.id());
            assertEquals(f.getFileName().toString(), r.id() + ".yaml", "a reference file is named after its study");
            assertFalse(r.claims().isEmpty(), f.toString());
            for (StudyReference.Claim c : r.claims()) {
                assertFalse(c.source().isBlank(), c.id() + " names no table, figure or section");
            }
        }
        assertTrue(studies.containsAll(List.of("quic-steps", "dual-connectivity", "highway")), studies.toString());
    }

    @Test
    void readsEveryKindOfClaim() throws Exception {
        StudyReference r = read("""
                  - {id: v, source: Table 1, says: a value, study: {mean: 37.37, std: 0.02, n: 20, unit: Mbit/s},
                     pacelab: {campaign: base, implementation: pacelab, metric: goodput}, agree: {within: 0.5}}
                  - {id: b, source: §5.1, says: a bound, study: {at-least: 0.999}, pacelab: {campaign: base, implementation: pacelab, metric: ptl_le5_share}}
                  - {id: r, source: §5.2, says: a relation, study: {relation: lower, values: [6.35, 687.15]},
                     pacelab: {campaign: base, implementation: pacelab, metric: drops}, versus: {campaign: base, implementation: pacelab, metric: drops}}
                  - {id: q, source: Fig. 9, says: a ratio, study: {mean: 2500, relative-to: 8000}, agree: {factor: 2},
                     pacelab: {campaign: base, implementation: pacelab, metric: goodput}, versus: {campaign: base, implementation: pacelab, metric: goodput}}
                  - {id: o, source: Fig. 3, says: an optimum, study: {optimum: max, range: [100, 150]},
                     pacelab: {campaign: base, implementation: pacelab, metric: dc_flow_mbps, over: batch}}
                  - {id: t, source: Fig. 5, says: a trend, study: {trend: falling},
                     pacelab: {campaign: base, implementation: pacelab, metric: jfi, over: rate, point: {ratio: "1:1"}, mode: [sim]}}
                """);
        assertEquals(List.of(Kind.VALUE, Kind.BOUND, Kind.RELATION, Kind.RATIO, Kind.OPTIMUM, Kind.TREND),
                r.claims().stream().map(c -> c.published().kind()).toList());
        StudyReference.Claim v = r.claims().getFirst();
        assertEquals(37.37, v.published().mean());
        assertEquals(0.5, v.agreement().absolute());
        assertEquals(List.of(100.0, 150.0), r.claims().get(4).published().range());
        assertEquals("1:1", r.claims().get(5).measure().point().get("ratio"));
        assertEquals(List.of("sim"), r.claims().get(5).measure().modes());
        StudyReference.Campaign c = r.campaign("base");
        assertEquals(1, c.quick().repetitions());
        assertEquals(List.of("sim"), c.quick().modes());
    }

    @Test
    void problemsNameTheFileLineAndColumnInOneSentence() throws Exception {
        String f = dir.resolve("ref.yaml").toString();
        String unknownKey = problem("""
                  - id: x
                    source: Table 1
                    says: something
                    studdy: {mean: 1}
                    study: {mean: 1}
                    pacelab: {campaign: base, implementation: pacelab, metric: drops}
                    agree: {factor: 2}
                """);
        assertEquals(f + ":10:5: claim.studdy: unknown key (did you mean 'study'?); valid keys: id, source, says, study, pacelab, "
                + "versus, agree", unknownKey);
        String metric = problem("""
                  - {id: x, source: T1, says: s, study: {mean: 1}, agree: {factor: 2},
                     pacelab: {campaign: base, implementation: pacelab, metric: dropz}}
                """);
        assertTrue(metric.startsWith(f + ":8:"), metric);
        assertTrue(metric.contains("metric 'dropz' is unknown (did you mean 'drops'?)"), metric);
        String campaign = problem("""
                  - {id: x, source: T1, says: s, study: {mean: 1}, agree: {factor: 2},
                     pacelab: {campaign: bas, implementation: pacelab, metric: drops}}
                """);
        assertTrue(campaign.startsWith(f + ":8:") && campaign.contains("campaign 'bas' is not one of the campaigns above (did you mean 'base'?)"),
                campaign);
        String agree = problem("""
                  - {id: x, source: T1, says: s, study: {mean: 1}, pacelab: {campaign: base, implementation: pacelab, metric: drops}}
                """);
        assertTrue(agree.startsWith(f + ":7:") && agree.contains("agree: missing"), agree);
        String number = problem("""
                  - {id: x, source: T1, says: s, study: {mean: lots}, agree: {factor: 2},
                     pacelab: {campaign: base, implementation: pacelab, metric: drops}}
                """);
        assertTrue(number.startsWith(f + ":7:") && number.contains("mean 'lots' is not a number"), number);
        String nothing = problem("""
                  - {id: x, source: T1, says: s, study: {unit: packets}, pacelab: {campaign: base, implementation: pacelab, metric: drops}}
                """);
        assertTrue(nothing.startsWith(f + ":7:") && nothing.contains("study states no value"), nothing);
        String noOver = problem("""
                  - {id: x, source: T1, says: s, study: {trend: rising}, pacelab: {campaign: base, implementation: pacelab, metric: jfi}}
                """);
        assertTrue(noOver.contains("needs pacelab.over"), noOver);
        for (String p : List.of(unknownKey, metric, campaign, agree, number, nothing, noOver)) {
            assertFalse(p.contains("\n"), p);
        }
    }

    @Test
    void duplicateIdsAndBrokenYamlAreRefusedWithTheirLine() throws Exception {
        String dup = problem("""
                  - {id: x, source: T1, says: s, study: {mean: 1}, agree: {factor: 2}, pacelab: {campaign: base, implementation: pacelab, metric: drops}}
                  - {id: x, source: T1, says: s, study: {mean: 2}, agree: {factor: 2}, pacelab: {campaign: base, implementation: pacelab, metric: drops}}
                """);
        assertTrue(dup.contains(":8:") && dup.contains("claim 'x': the id is used twice (first at line 7)"), dup);
        String yaml = problem("  - {id: x, source: [unclosed\n");
        assertTrue(yaml.contains("ref.yaml:") && yaml.contains("not valid YAML"), yaml);
    }

    @Test
    void aMissingScenarioFileIsNamed() throws Exception {
        Path f = dir.resolve("ref2.yaml");
        Files.writeString(f, HEAD.replace("s.yaml", "missing.yaml")
                + "  - {id: x, source: T1, says: s, study: {mean: 1}, agree: {factor: 2}, pacelab: {campaign: base, implementation: pacelab, metric: drops}}\n");
        ScenarioException e = assertThrows(ScenarioException.class, () -> ReferenceReader.read(f));
        assertTrue(e.getMessage().startsWith(f + ":5:") && e.getMessage().contains("missing.yaml does not exist"), e.getMessage());
    }
}
