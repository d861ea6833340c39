package org.pacelab.lab.interop;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The cells a matrix directory already holds: every {@code runs/SERVER_CLIENT/CASE/result.json} with a finished
 * result and its {@link CellProvenance}. A directory without one is a cell that never ran or was interrupted; a
 * {@code result.json} without provenance (written before results had one) or unreadable is not taken, so that cell
 * runs again when planned.
 */
final class MatrixStore {
    private static final ObjectMapper JSON = new ObjectMapper();

    private MatrixStore() {}

    /** The finished cells by {@link CellResult#key()}, in file order; says on {@code progress} what it could not take. */
    static Map<String, CellResult> read(Path out, PrintStream progress) throws IOException {
        Map<String, CellResult> cells = new LinkedHashMap<>();
        Path runs = out.resolve("runs");
        if (!Files.isDirectory(runs)) {
            return cells;
        }
        List<Path> files;
        try (Stream<Path> s = Files.walk(runs, 3)) {
            files = s.filter(p -> p.getFileName().toString().equals("result.json")).sorted(Comparator.naturalOrder()).toList();
        }
        int old = 0;
        for (Path f : files) {
            CellResult r = parse(f);
            if (r == null) {
                old++;
            } else {
                cells.put(r.key(), r);
            }
        }
        if (old > 0) {
            progress.printf("%d result.json file(s) in %s have no provenance or cannot be read; their cells run again when "
                    + "planned%n", old, runs);
        }
        return cells;
    }

    /** A stored cell, or null when the file is unreadable or has no provenance. */
    static CellResult parse(Path file) {
        try {
            JsonNode n = JSON.readTree(Files.readString(file));
            JsonNode p = n.get("provenance");
            if (p == null || !p.isObject() || n.get("case") == null || n.get("server") == null || n.get("client") == null) {
                return null;
            }
            CheckResult.Outcome outcome = null;
            for (CheckResult.Outcome o : CheckResult.Outcome.values()) {
                if (o.label().equals(n.path("result").asText())) {
                    outcome = o;
                }
            }
            if (outcome == null) {
                return null;
            }
            CellProvenance prov = new CellProvenance(p.path("commit").asText("unknown"), p.path("invocation").asText(""),
                    p.path("started").asText(""), p.path("finished").asText(""), number(p.get("load_start")),
                    number(p.get("load_end")), p.path("seed").asLong(), Math.max(1, p.path("jobs").asInt(1)));
            return new CellResult(n.get("case").asText(), n.get("server").asText(), n.get("client").asText(),
                    new CheckResult(outcome, text(n.get("reason"))), n.path("seconds").asDouble(), text(n.get("alpn")),
                    text(n.get("directory")), prov);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static String text(JsonNode n) {
        return n == null || n.isNull() ? null : n.asText();
    }

    private static double number(JsonNode n) {
        return n == null || !n.isNumber() ? Double.NaN : n.asDouble();
    }

    /**
     * The extent of the matrix shown: the servers, clients and cases of the plan and of every stored cell, endpoints in
     * the registry's order (then any the registry does not know, by name order of appearance), cases and measurements in
     * the runner's.
     */
    static InteropMatrix.Plan extent(InteropMatrix.Plan plan, List<CellResult> cells, InteropEndpoints registry) {
        Set<String> servers = new LinkedHashSet<>();
        Set<String> clients = new LinkedHashSet<>();
        Set<String> cases = new LinkedHashSet<>();
        plan.servers().forEach(e -> servers.add(e.name()));
        plan.clients().forEach(e -> clients.add(e.name()));
        plan.cases().forEach(c -> cases.add(c.name()));
        for (CellResult r : cells) {
            servers.add(r.server());
            clients.add(r.client());
            cases.add(r.testCase());
        }
        List<InteropCase> shownCases = new ArrayList<>();
        for (InteropCase c : InteropCases.all()) {
            if (cases.contains(c.name())) {
                shownCases.add(c);
            }
        }
        // measurements: the plan's (with its repetition count), then those of stored cells, in the runner's order
        List<InteropMeasurement> shownMeasurements = new ArrayList<>(plan.measurements());
        for (InteropMeasurement m : InteropMeasurements.all()) {
            if (cases.contains(m.name()) && shownMeasurements.stream().noneMatch(x -> x.name().equals(m.name()))) {
                shownMeasurements.add(m);
            }
        }
        return new InteropMatrix.Plan(endpoints(servers, plan.servers(), registry), endpoints(clients, plan.clients(), registry),
                shownCases, plan.seed(), plan.rerun(), shownMeasurements);
    }

    private static List<InteropEndpoint> endpoints(Set<String> names, List<InteropEndpoint> planned, InteropEndpoints registry) {
        List<InteropEndpoint> out = new ArrayList<>();
        for (InteropEndpoint e : registry.all()) {
            if (names.contains(e.name())) {
                out.add(e);
            }
        }
        for (InteropEndpoint e : planned) {
            if (!out.contains(e) && out.stream().noneMatch(x -> x.name().equals(e.name()))) {
                out.add(e);
            }
        }
        return out;
    }
}
