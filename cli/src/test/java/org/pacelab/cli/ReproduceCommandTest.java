package org.pacelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.analysis.summary.Summary;
import org.pacelab.lab.reproduce.Metrics;
import org.pacelab.lab.reproduce.ReferenceReader;
import org.pacelab.lab.reproduce.StudyReference;
import org.pacelab.lab.store.ResultStore;

/**
 * {@code pacelab reproduce}: bad input is one sentence naming the place (exit 2, nothing created), and the CI variant
 * of the QUIC Steps reproduction ({@code --quick --mode sim}) reports every claim of the reference file, each with a
 * value that is the mean of the metric over the runs' stored summaries, or as "cannot measure" with its reason.
 */
class ReproduceCommandTest {
    @TempDir
    Path tmp;

    @Test
    void anUnknownStudyIsOneSentenceWithTheValidStudies() {
        CliRun r = CliRun.of("reproduce", "quic-step", "--out", tmp.resolve("out").toString(), "--no-install");
        assertEquals(2, r.code(), r.out() + r.err());
        String err = r.err().strip();
        assertFalse(err.contains("\n"), err);
        assertTrue(err.startsWith("pacelab reproduce: unknown study 'quic-step' (did you mean 'quic-steps'?); studies: "), err);
        assertTrue(err.contains("dual-connectivity, highway, quic-steps"), err);
        assertFalse(Files.exists(tmp.resolve("out")));
    }

    @Test
    void aMalformedOrUnknownClaimNamesItsFileAndLine() throws Exception {
        Files.writeString(tmp.resolve("s.yaml"), "mode: sim\ntransfer: {size: 1MiB}\nimplementations: [pacelab]\nsweep: {cc: [cubic, bbr]}\n");
        String head = "study: t\ntitle: T\ncitation: C\ncampaigns: {c: {scenario: s.yaml}}\nclaims:\n";
        Path ref = tmp.resolve("t.yaml");
        Files.writeString(ref, head + "  - {id: x, source: T1, says: s, study: {mean: 1}, agree: {factor: 2},\n"
                + "     pacelab: {campaign: c, implementation: pacelab, point: {cc: cubic}, metric: drop}}\n");
        CliRun malformed = CliRun.of("reproduce", ref.toString(), "--out", tmp.resolve("out").toString(), "--no-install");
        assertEquals(2, malformed.code());
        assertEquals("pacelab reproduce: " + ref + ":7:82: claim 'x' pacelab: metric 'drop' is unknown (did you mean 'drops'?); "
                + "metrics are goodput and the numeric run-summary fields (docs/analysis-summary-schema.md)", malformed.err().strip());
        Files.writeString(ref, head + "  - {id: x, source: T1, says: s, study: {mean: 1}, agree: {factor: 2},\n"
                + "     pacelab: {campaign: c, implementation: pacelab, point: {pacer: interval}, metric: drops}}\n");
        CliRun unknown = CliRun.of("reproduce", ref.toString(), "--out", tmp.resolve("out").toString(), "--no-install");
        assertEquals(2, unknown.code());
        assertEquals("pacelab reproduce: " + ref + ":7:15: claim 'x' pacelab.point: 'pacer' is not a sweep axis of pacelab in s; "
                + "its axes: cc", unknown.err().strip());
        assertFalse(Files.exists(tmp.resolve("out")), "nothing is created");
    }

    /**
     * A study run in slices: {@code --campaigns} runs one campaign, the report lists the other's claim as not run yet;
     * the next slice into the same --out runs only the other, and the report then measures both claims.
     */
    @Test
    void aStudyRunInSlicesReportsEveryStoredRun() throws Exception {
        Files.writeString(tmp.resolve("a.yaml"), "name: slice-a\nmode: sim\ntransfer: {size: 256KiB}\nimplementations: [pacelab]\n");
        Files.writeString(tmp.resolve("b.yaml"), "name: slice-b\nmode: sim\ntransfer: {size: 256KiB}\nimplementations: [pacelab]\n");
        Path ref = tmp.resolve("t.yaml");
        Files.writeString(ref, "study: t\ntitle: T\ncitation: C\ncampaigns: {a: {scenario: a.yaml}, b: {scenario: b.yaml}}\nclaims:\n"
                + "  - {id: ga, source: T1, says: s, study: {mean: 1}, agree: {factor: 1000000},\n"
                + "     pacelab: {campaign: a, implementation: pacelab, metric: goodput}}\n"
                + "  - {id: gb, source: T2, says: s, study: {mean: 1}, agree: {factor: 1000000},\n"
                + "     pacelab: {campaign: b, implementation: pacelab, metric: goodput}}\n");
        Path out = tmp.resolve("out");
        CliRun unknown = CliRun.of("reproduce", ref.toString(), "--campaigns", "a,c", "--out", out.toString(), "--no-install");
        assertEquals(2, unknown.code(), unknown.out() + unknown.err());
        assertEquals("pacelab reproduce: " + ref + ": --campaigns: 'c' is not a campaign of t; its campaigns: a, b",
                unknown.err().strip());
        assertFalse(Files.exists(out), "nothing is created");

        CliRun first = CliRun.of("reproduce", ref.toString(), "--campaigns", "a", "--out", out.toString(), "--no-install");
        assertEquals(0, first.code(), first.out() + first.err());
        String report = Files.readString(out.resolve("report.md"), StandardCharsets.UTF_8);
        assertTrue(report.contains("| gb — s | T2 | 1 | cannot measure: not run yet: --campaigns a leaves campaign b out"), report);
        assertTrue(report.contains("| ga — s | T1 | 1 | "), report);
        assertFalse(report.contains("| ga — s | T1 | 1 | cannot measure"), report);
        assertFalse(Files.exists(out.resolve("slice-b")), "campaign b did not run");

        CliRun second = CliRun.of("reproduce", ref.toString(), "--campaigns", "b", "--out", out.toString(), "--no-install");
        assertEquals(0, second.code(), second.out() + second.err());
        report = Files.readString(out.resolve("report.md"), StandardCharsets.UTF_8);
        assertFalse(report.contains("not run yet"), report);
        assertFalse(report.contains("cannot measure"), report);
        assertTrue(report.contains("1 finished by this invocation, 1 stored by earlier ones"), report);
        assertFalse(second.out().contains("campaign a:"), "campaign a is not run again: " + second.out());
    }

    /** Every shipped study resolves each claim to one configuration in its quick and its full variant. */
    @Test
    void everyShippedStudyChecksInBothVariants() {
        for (String study : List.of("quic-steps", "dual-connectivity", "highway")) {
            for (List<String> variant : List.of(List.<String>of(), List.of("--quick"))) {
                List<String> args = new ArrayList<>(List.of("reproduce", study, "--check", "--no-install",
                        "--out", tmp.resolve(study).toString()));
                args.addAll(variant);
                CliRun r = CliRun.of(args.toArray(String[]::new));
                assertEquals(0, r.code(), study + " " + variant + ": " + r.out() + r.err());
                assertTrue(r.out().contains(study + ": "), r.out());
            }
        }
    }

    @Test
    void theCiVariantReportsEveryClaimWithAMeasuredValueOrTheReason() throws Exception {
        Path out = tmp.resolve("quic-steps");
        CliRun r = CliRun.inChild(tmp, "reproduce", "quic-steps", "--quick", "--mode", "sim", "--out", out.toString(),
                "--no-install", "--jobs", "2");
        assertEquals(0, r.code(), r.out() + r.err());
        String report = Files.readString(out.resolve("report.md"), StandardCharsets.UTF_8);
        assertTrue(Files.readString(out.resolve("report.html"), StandardCharsets.UTF_8).contains("<table>"));
        StudyReference ref = ReferenceReader.read(Path.of("..", "studies", "quic-steps.yaml"));
        Map<String, List<String[]>> rows = rows(report);
        int measured = 0;
        for (StudyReference.Claim c : ref.claims()) {
            List<String[]> mine = rows.get(c.id());
            assertNotNull(mine, "claim " + c.id() + " is missing from the report");
            for (String[] row : mine) {
                String pacelab = row[3];
                String verdict = row[5];
                if (verdict.startsWith("cannot measure")) {
                    assertTrue(pacelab.matches("cannot measure: \\S.{10,}"), c.id() + ": no reason in '" + pacelab + "'");
                    continue;
                }
                assertTrue(verdict.startsWith("reproduced (sim)") || verdict.startsWith("differs (sim)"), c.id() + ": " + verdict);
                if (c.published().kind() == StudyReference.Kind.VALUE || c.published().kind() == StudyReference.Kind.BOUND) {
                    checkAgainstTheStore(out, c, pacelab);
                    measured++;
                }
            }
        }
        assertTrue(measured >= 5, "value claims measured in the simulator: " + measured + "\n" + report);
        assertTrue(report.contains("--mode sim leaves netns mode out"), report);
        assertTrue(report.contains("--quick leaves campaign cca"), report);
    }

    /** The row's value is the mean of the claim's metric over the stored summaries of the configuration it names. */
    private static void checkAgainstTheStore(Path out, StudyReference.Claim c, String cell) throws Exception {
        // "143.6 (n 1, sim, pacelab-fq rollback=off (sim))" or "37.55 (n 1, sim, NAME, goodput_app_mbps)"
        String number = cell.substring(0, cell.indexOf(' '));
        String inside = cell.substring(cell.indexOf("(n ") + 1, cell.length() - 1);
        String[] parts = inside.split(", ");
        String config = parts[2];
        String scenario = Path.of(ReferenceReader.read(Path.of("..", "studies", "quic-steps.yaml")).campaign(c.measure().campaign())
                .scenario().getFileName().toString().replace(".yaml", "")).toString();
        List<Double> values = new ArrayList<>();
        try (ResultStore store = ResultStore.openExisting(out.resolve(scenario).resolve("campaign.duckdb"))) {
            for (ResultStore.StoredConfiguration sc : store.configurations()) {
                if (sc.name().equals(config)) {
                    for (String key : sc.runKeys()) {
                        Summary s = store.summary(key);
                        Metrics.Value v = Metrics.of(c.measure().metric(), s);
                        if (v.field() != null) {
                            values.add(v.value());
                        }
                    }
                }
            }
        }
        assertFalse(values.isEmpty(), c.id() + ": no stored run of '" + config + "'");
        assertEquals(Integer.parseInt(parts[0].substring(2)), values.size(), c.id());
        double mean = values.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
        double shown = Double.parseDouble(number);
        assertEquals(mean, shown, Math.abs(mean) * 1e-3 + 1e-9, c.id() + ": " + cell);
    }

    /** Table rows of report.md by claim id: claim, source, study, pacelab, difference, verdict. */
    private static Map<String, List<String[]>> rows(String report) {
        Map<String, List<String[]>> out = new LinkedHashMap<>();
        for (String line : report.lines().toList()) {
            if (!line.startsWith("| ") || line.startsWith("| Claim") || line.startsWith("|---")) {
                continue;
            }
            String[] cells = line.substring(2, line.length() - 2).split(" \\| ", -1);
            assertEquals(6, cells.length, line);
            String id = cells[0].substring(0, cells[0].indexOf(" — "));
            out.computeIfAbsent(id, k -> new ArrayList<>()).add(cells);
        }
        return out;
    }
}
