package org.pacelab.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import org.pacelab.lab.host.Host;
import org.pacelab.lab.interop.CellResult;
import org.pacelab.lab.interop.CheckResult;
import org.pacelab.lab.interop.InteropCase;
import org.pacelab.lab.interop.InteropCases;
import org.pacelab.lab.interop.InteropMeasurement;
import org.pacelab.lab.interop.InteropMeasurements;
import org.pacelab.lab.interop.InteropEndpoint;
import org.pacelab.lab.interop.InteropEndpoints;
import org.pacelab.lab.interop.InteropMatrix;
import org.pacelab.lab.interop.MatrixDocument;
import org.pacelab.lab.peer.PacelabLauncher;
import org.pacelab.lab.peer.Role;

import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code pacelab interop}: the QUIC Interop Runner's test cases between every usable peer, both roles, run locally
 * through pacelab's emulator instead of Docker and ns-3, checked from the tap with Wireshark as the runner checks them.
 */
@Command(name = "interop", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs the QUIC Interop Runner's test cases locally (no Docker, no ns-3): each server against each client",
                "through pacelab's emulator (the runner's 10 Mbit/s, 15 ms, 25-packet link with its loss, corruption, blackhole,",
                "drop list and rebinding), checked from the server-side tap with tshark and the downloaded files, as the runner",
                "checks them. Writes the matrix with the reason of every failure and unsupported case."},
        footer = {"", "Results go to DIR (default results/interop): matrix.json, matrix.md, index.html, environment.json, and",
                "runs/SERVER_CLIENT/CASE/ (tap.pcapng, key logs, logs, result.json). Needs tshark (Debian package tshark).",
                "Resumable: run again with the same --out and only cells without a finished result run (--rerun to repeat",
                "some); the matrix covers every cell in DIR, so a long matrix is built in slices of --cases or peers.",
                "--jobs N runs N cells at once; each cell's provenance says so. 1 is the default and the recommended value for a",
                "matrix of record: parallel cells share the CPUs and the timing-sensitive cases fail more under load.",
                "Measurements (--measurements goodput): the runner's goodput, a 10 MiB download repeated 5 times per server and",
                "client, each a fresh pair; runs/SERVER_CLIENT/goodput/result.json has every repetition and mean ± std in kbps.",
                "Example: pacelab interop --peers pacelab,ngtcp2 --cases handshake,transfer,retry",
                "Example: pacelab interop --peers pacelab --measurements goodput --out results/goodput"})
public final class InteropCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--peers", split = ",", paramLabel = "LIST",
            description = "the implementations, each as server and as client (default: every usable one)")
    List<String> peers;

    @Option(names = "--servers", split = ",", paramLabel = "LIST", description = "only these as servers (default: --peers)")
    List<String> servers;

    @Option(names = "--clients", split = ",", paramLabel = "LIST", description = "only these as clients (default: --peers)")
    List<String> clients;

    @Option(names = "--cases", split = ",", paramLabel = "LIST", description = "the test cases, or 'none' (default: all, in the "
            + "runner's order; none when --measurements is given)")
    List<String> cases;

    @Option(names = "--measurements", split = ",", paramLabel = "LIST", description = "the runner's measurements to run after "
            + "the cases: goodput, or 'none' (default: none); crosstraffic needs a TCP flow pacelab's UDP emulator cannot carry")
    List<String> measurements;

    @Option(names = "--repetitions", paramLabel = "N", converter = Repetitions.class, description = "repetitions of each "
            + "measurement (default: the runner's, 5 for goodput); fewer give a quick look, not the runner's numbers")
    Integer repetitions;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "results/interop", converter = PathChecks.OutputDirectory.class, description = "matrix directory (default: ${DEFAULT-VALUE})")
    Path out;

    @Option(names = "--seed", defaultValue = "1", paramLabel = "N", description = "seed of the emulator's random streams (default: ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--rerun", split = ",", paramLabel = "LIST",
            description = "run these cells again although DIR has their result: 'failed', 'all', or case names (default: "
                    + "only cells without a finished result run; the others are kept)")
    List<String> rerun;

    @Option(names = "--update-doc", paramLabel = "FILE",
            description = "replace the generated section of FILE (e.g. docs/interop.md) with the new matrix")
    Path updateDoc;

    @Option(names = "--tshark", defaultValue = "tshark", paramLabel = "PROGRAM", description = "tshark program (default: ${DEFAULT-VALUE})")
    String tshark;

    @Option(names = "--jobs", defaultValue = "1", paramLabel = "N", converter = Jobs.class,
            description = "cells run at once (default: ${DEFAULT-VALUE}); they share the host's CPUs, and the timing-sensitive "
                    + "cases (the rebinding cases, the case timeouts, handshakeloss) fail more under load: keep 1 for a "
                    + "matrix of record unless measured")
    int jobs;

    /** {@code --repetitions}: a whole number from 1 up; anything else is one sentence with the valid range. */
    static final class Repetitions implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            try {
                int n = Integer.parseInt(value.strip());
                if (n >= 1) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // said below
            }
            throw new TypeConversionException("'" + value + "' is not a whole number from 1 up; give how many times each "
                    + "measurement repeats (default: the runner's, 5 for goodput)");
        }
    }

    /** {@code --jobs}: a whole number from 1 up; anything else is one sentence with the valid range. */
    static final class Jobs implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            int n;
            try {
                n = Integer.parseInt(value.strip());
            } catch (NumberFormatException e) {
                throw new TypeConversionException("'" + value + "' is not a whole number; give how many cells run at once, 1 or more "
                        + "(default 1)");
            }
            if (n < 1) {
                throw new TypeConversionException("must be at least 1, got " + n + "; give how many cells run at once, 1 or more "
                        + "(default 1)");
            }
            return n;
        }
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        PrintWriter err = spec.commandLine().getErr();
        InteropEndpoints registry = InteropEndpoints.standard();
        List<InteropCase> chosen = new ArrayList<>();
        for (String name : cases == null ? (measurements == null ? InteropCases.names() : List.<String>of()) : cases) {
            if (name.strip().equals("none")) {
                continue;
            }
            var c = InteropCases.get(name.strip());
            if (c.isEmpty()) {
                return usage("unknown test case '" + name.strip() + "'; valid cases: none, " + String.join(", ", InteropCases.names()));
            }
            if (!chosen.contains(c.get())) {
                chosen.add(c.get());
            }
        }
        List<InteropMeasurement> measured = new ArrayList<>();
        for (String name : measurements == null ? List.<String>of() : measurements) {
            String n = name.strip();
            if (n.equals("none")) {
                continue;
            }
            String notHere = InteropMeasurements.notHere(n);
            if (notHere != null) {
                return usage("--measurements: " + notHere + "; valid: none, " + String.join(", ", InteropMeasurements.names()));
            }
            var m = InteropMeasurements.get(n);
            if (m.isEmpty()) {
                return usage("--measurements: unknown measurement '" + n + "'; valid: none, " + String.join(", ",
                        InteropMeasurements.names()));
            }
            InteropMeasurement x = repetitions == null ? m.get() : m.get().withRepetitions(repetitions);
            if (measured.stream().noneMatch(y -> y.name().equals(x.name()))) {
                measured.add(x);
            }
        }
        if (chosen.isEmpty() && measured.isEmpty()) {
            return usage("nothing to run: --cases and --measurements name none");
        }
        InteropMatrix.Rerun again = InteropMatrix.Rerun.NONE;
        if (rerun != null) {
            List<String> words = rerun.stream().map(String::strip).toList();
            for (String w : words) {
                if (!w.equals("all") && !w.equals("failed") && InteropCases.get(w).isEmpty() && InteropMeasurements.get(w).isEmpty()) {
                    return usage("--rerun: unknown test case '" + w + "'; valid: all, failed, " + String.join(", ", InteropCases.names())
                            + ", " + String.join(", ", InteropMeasurements.names()));
                }
            }
            again = InteropMatrix.Rerun.of(words);
        }
        Host host = new Host();
        PacelabLauncher pacelab = Launchers.current();
        if (host.which(tshark).isEmpty() && !Files.isExecutable(Path.of(tshark))) {
            return usage("'" + tshark + "' was not found; the checks read the tap with Wireshark's tshark: install it (apt-get "
                    + "install tshark) or name it with --tshark");
        }
        if (updateDoc != null && (!Files.isRegularFile(updateDoc) || !Files.readString(updateDoc).contains(MatrixDocument.BEGIN))) {
            return usage("--update-doc: " + updateDoc + (Files.isRegularFile(updateDoc) ? " has no line " + MatrixDocument.BEGIN
                    + " marking where the matrix goes" : " is not a file"));
        }
        InteropMatrix matrix = new InteropMatrix(out, pacelab, host, tshark, new java.io.PrintStream(System.out, true,
                java.nio.charset.StandardCharsets.UTF_8), registry);
        List<InteropEndpoint> s;
        List<InteropEndpoint> c;
        try {
            s = endpoints(registry, servers != null ? servers : peers, Role.SERVER, matrix, err);
            c = endpoints(registry, clients != null ? clients : peers, Role.CLIENT, matrix, err);
        } catch (IllegalArgumentException e) {
            return usage(e.getMessage());
        }
        if (s.isEmpty() || c.isEmpty()) {
            return usage("no usable " + (s.isEmpty() ? "server" : "client") + " is left to run");
        }
        List<CellResult> cells = matrix.run(new InteropMatrix.Plan(s, c, chosen, seed, again, measured), jobs);
        long ok = cells.stream().filter(r -> r.result().outcome() == CheckResult.Outcome.SUCCEEDED).count();
        long failed = cells.stream().filter(r -> r.result().outcome() == CheckResult.Outcome.FAILED).count();
        long unsupported = cells.size() - ok - failed;
        System.out.printf(Locale.ROOT, "%d succeeded, %d failed, %d unsupported; matrix in %s%n", ok, failed, unsupported,
                out.toAbsolutePath().resolve("index.html"));
        if (updateDoc != null) {
            try {
                MatrixDocument.update(updateDoc, Files.readString(out.toAbsolutePath().resolve("matrix.md")));
                System.out.println("updated the matrix in " + updateDoc);
            } catch (IOException e) {
                err.println("pacelab interop: --update-doc: " + e.getMessage());
                return 2;
            }
        }
        return failed == 0 ? 0 : 1;
    }

    /** The named endpoints (all usable ones by default); a named one that cannot run here is an error. */
    private static List<InteropEndpoint> endpoints(InteropEndpoints registry, List<String> names, Role role, InteropMatrix matrix,
                                                   PrintWriter err) {
        List<InteropEndpoint> out = new ArrayList<>();
        if (names == null) {
            for (InteropEndpoint e : registry.all()) {
                String why = matrix.unusable(e, role);
                if (why == null) {
                    out.add(e);
                } else {
                    err.println("pacelab interop: leaving out " + e.name() + " as " + role.word() + ": " + why);
                }
            }
            return out;
        }
        for (String n : new LinkedHashSet<>(names)) {
            InteropEndpoint e = registry.get(n.strip().toLowerCase(Locale.ROOT)).orElseThrow(() -> new IllegalArgumentException(
                    "unknown peer '" + n.strip() + "'; valid peers: " + String.join(", ", registry.names())));
            String why = matrix.unusable(e, role);
            if (why != null) {
                throw new IllegalArgumentException(e.name() + " cannot run as " + role.word() + " here: " + why);
            }
            out.add(e);
        }
        return out;
    }

    private int usage(String message) {
        spec.commandLine().getErr().println("pacelab interop: " + message);
        return 2;
    }
}
