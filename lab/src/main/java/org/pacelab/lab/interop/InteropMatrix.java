package org.pacelab.lab.interop;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.pacelab.analysis.io.AtomicFiles;
import org.pacelab.io.tls.Certificates;
import org.pacelab.lab.host.EnvironmentRecord;
import org.pacelab.lab.host.Host;
import org.pacelab.lab.peer.Availability;
import org.pacelab.lab.peer.PacelabLauncher;
import org.pacelab.lab.peer.Role;
import org.pacelab.lab.run.ProcessSupervisor;

/**
 * Runs the QUIC Interop Runner's test cases between every server and every client chosen (pacelab against each peer
 * in both roles, and the peers against each other), one cell at a time, and writes the matrix: {@code matrix.json},
 * {@code index.html}, {@code matrix.md}, {@code environment.json} and one directory per run under {@code runs/}
 * (tap, key logs, logs, the emulator's counters, {@code result.json}). Every file is written atomically; a cell's
 * files are replaced when it runs again.
 */
public final class InteropMatrix {
    /** What to run. */
    public record Plan(List<InteropEndpoint> servers, List<InteropEndpoint> clients, List<InteropCase> cases, long seed) {}

    private final Path out;
    private final PacelabLauncher pacelab;
    private final Host host;
    private final TraceReader reader;
    private final PrintStream progress;

    public InteropMatrix(Path out, PacelabLauncher pacelab, Host host, String tshark, PrintStream progress) {
        this.out = out.toAbsolutePath();
        this.pacelab = pacelab;
        this.host = host;
        this.reader = new TraceReader(tshark);
        this.progress = progress;
    }

    /** Why an endpoint cannot run here in a role, or null when it can. */
    public String unusable(InteropEndpoint e, Role role) {
        Availability a = e.availability(role, host, pacelab);
        return a.usable() ? null : a.reason();
    }

    /** Runs the plan and writes the matrix; returns every cell. */
    public List<CellResult> run(Plan plan) throws IOException, InterruptedException {
        Files.createDirectories(out.resolve("runs"));
        Path registry = out.resolve(".children");
        ProcessSupervisor.stopLeftovers(registry);
        ProcessSupervisor supervisor = new ProcessSupervisor(registry);
        Thread hook = new Thread(() -> supervisor.shutdown(2_000), "interop-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        Map<Integer, Path> pki = new LinkedHashMap<>();
        List<CellResult> cells = new ArrayList<>();
        int total = plan.cases().size() * plan.servers().size() * plan.clients().size();
        int n = 0;
        try {
            writeEnvironment(plan);
            for (InteropCase c : plan.cases()) {
                for (InteropEndpoint s : plan.servers()) {
                    for (InteropEndpoint cl : plan.clients()) {
                        n++;
                        CellResult r = cell(c, s, cl, plan.seed(), pki, supervisor);
                        cells.add(r);
                        progress.printf(Locale.ROOT, "[%3d/%d] %-20s %-8s -> %-8s %-11s %5.1f s  %s%n", n, total, c.name(), s.name(), cl.name(),
                                r.result().outcome().label(), r.seconds(), r.result().reason() == null ? "" : r.result().reason());
                        progress.flush();
                        writeMatrix(plan, cells);
                    }
                }
            }
        } finally {
            supervisor.stopAll(2_000);
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running
            }
        }
        return cells;
    }

    private CellResult cell(InteropCase c, InteropEndpoint s, InteropEndpoint cl, long seed, Map<Integer, Path> pki,
                            ProcessSupervisor supervisor) throws IOException, InterruptedException {
        String alpn = alpn(c, s, cl);
        CheckResult before = before(c, s, cl, alpn);
        String rel = "runs/" + s.name() + "_" + cl.name() + "/" + c.name();
        Path dir = out.resolve(rel);
        deleteTree(dir);
        if (before != null) {
            CellResult r = new CellResult(c.name(), s.name(), cl.name(), before, 0, null, null);
            return r;
        }
        Files.createDirectories(dir);
        Path certs = certificates(c.certificateChain(), pki);
        InteropRun run = new InteropRun(c, s, cl, alpn, dir, certs, pacelab, supervisor, reader, seed);
        long start = System.nanoTime();
        CheckResult result;
        try {
            result = run.run();
        } catch (IOException e) {
            result = CheckResult.failed("the run could not be completed: " + e.getMessage());
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        run.removeFiles();
        CellResult r = new CellResult(c.name(), s.name(), cl.name(), result, seconds, alpn, rel);
        AtomicFiles.writeString(dir.resolve("result.json"), MatrixFiles.cellJson(r));
        return r;
    }

    /** The runner's protocol (hq-interop, or h3 for http3) when both speak it, else h3 when both speak that. */
    static String alpn(InteropCase c, InteropEndpoint s, InteropEndpoint cl) {
        Set<String> both = new TreeSet<>(s.protocols(Role.SERVER));
        both.retainAll(cl.protocols(Role.CLIENT));
        if (both.contains(c.alpn())) {
            return c.alpn();
        }
        if (!c.alpn().equals("h3") && both.contains("h3")) {
            return "h3";
        }
        return null;
    }

    /** The result decided before running: unsupported by an endpoint, or no common protocol; null to run. */
    static CheckResult before(InteropCase c, InteropEndpoint s, InteropEndpoint cl, String alpn) {
        String why = s.unsupported(Role.SERVER, c.serverTestname());
        if (why != null) {
            return CheckResult.unsupported("server " + s.name() + ": " + why);
        }
        why = cl.unsupported(Role.CLIENT, c.clientTestname());
        if (why != null) {
            return CheckResult.unsupported("client " + cl.name() + ": " + why);
        }
        if (alpn == null) {
            return CheckResult.unsupported(c.alpn().equals("h3") ? "HTTP/3 is not spoken by " + (s.protocols(Role.SERVER).contains("h3")
                    ? "client " + cl.name() : "server " + s.name())
                    : "no common application protocol (server " + s.name() + ": " + String.join(", ", new TreeSet<>(s.protocols(Role.SERVER)))
                    + "; client " + cl.name() + ": " + String.join(", ", new TreeSet<>(cl.protocols(Role.CLIENT))) + ")");
        }
        return null;
    }

    /** The certificate directory for a chain length, made once per matrix. */
    private Path certificates(int length, Map<Integer, Path> pki) throws IOException {
        Path dir = pki.get(length);
        if (dir != null) {
            return dir;
        }
        dir = out.resolve("pki").resolve("chain-" + length);
        Files.createDirectories(dir);
        Certificates.Identity id = Certificates.chain(length, List.of("localhost", "server", "server4", "server6", "server46",
                "127.0.0.1", "::1"), 20);
        StringBuilder pem = new StringBuilder();
        for (var cert : id.chain()) {
            pem.append(Certificates.toPem(cert));
        }
        AtomicFiles.writeString(dir.resolve("cert.pem"), pem.toString());
        AtomicFiles.writeString(dir.resolve("priv.key"), Certificates.toPem(id.key()));
        pki.put(length, dir);
        return dir;
    }

    private void writeEnvironment(Plan plan) throws IOException {
        Map<String, String> env = new LinkedHashMap<>(EnvironmentRecord.collect(host));
        Set<InteropEndpoint> used = new java.util.LinkedHashSet<>(plan.servers());
        used.addAll(plan.clients());
        for (InteropEndpoint e : used) {
            env.put("peer " + e.name(), e.version(Role.SERVER, host, pacelab));
        }
        env.put("seed", Long.toString(plan.seed()));
        AtomicFiles.writeString(out.resolve("environment.json"), MatrixFiles.json(env));
    }

    private void writeMatrix(Plan plan, List<CellResult> cells) throws IOException {
        AtomicFiles.writeString(out.resolve("matrix.json"), MatrixFiles.matrixJson(plan, cells));
        AtomicFiles.writeString(out.resolve("matrix.md"), MatrixFiles.markdown(plan, cells));
        AtomicFiles.writeString(out.resolve("index.html"), MatrixFiles.html(plan, cells));
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var s = Files.walk(dir)) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
