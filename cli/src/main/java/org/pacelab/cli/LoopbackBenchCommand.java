package org.pacelab.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import org.pacelab.lab.bench.BenchReport;
import org.pacelab.lab.bench.BenchStack;
import org.pacelab.lab.bench.LoopbackBench;
import org.pacelab.lab.bench.Stacks;
import org.pacelab.lab.host.Host;
import org.pacelab.lab.peer.PacelabLauncher;
import org.pacelab.lab.scenario.CommandWords;
import org.pacelab.peers.build.PeerCache;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code pacelab bench loopback}: pacelab's stack against other stacks over loopback, default against default. */
@Command(name = "loopback", mixinStandardHelpOptions = true,
        description = {"Unshaped loopback goodput of pacelab server -> pacelab client against other stacks (each with its",
                "defaults), the same file downloaded to disk by each client, alternating in one session. Prints every run,",
                "then per stack the median (mean ± std) goodput, CPU seconds per GiB of the client and of the server, the",
                "server's start time, ratios of the medians and the load average. Goodput counts the client's whole life",
                "(JVM start included); each run starts a fresh server. The QUIC clients (pacelab, gtlsclient, picoquicdemo)",
                "make one HTTP/3 request; curl makes one HTTP/2 request over TLS 1.3. Every download is checked byte for",
                "byte against the original after the run."})
public final class LoopbackBenchCommand implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(names = "--size", paramLabel = "SIZE", converter = UnitConverters.Size.class,
            description = "Size of the file (default: 1GiB).")
    long size = 1L << 30;

    @Option(names = "--reps", paramLabel = "N", description = "Runs per stack (default: ${DEFAULT-VALUE}).")
    int reps = 3;

    @Option(names = "--peers", paramLabel = "LIST", split = ",",
            description = {"Stacks to compare with: ngtcp2 (gtlsserver -> gtlsclient), picoquic (picoquicdemo -> picoquicdemo,",
                    "built by 'pacelab peers install picoquic'), tcp (nginx -> curl, HTTP/2 over TLS); empty for pacelab alone",
                    "(default: ngtcp2)."})
    List<String> peers = new ArrayList<>(List.of("ngtcp2"));

    @Option(names = "--pacelab", paramLabel = "NAME=OPTIONS",
            description = {"A pacelab variant to run besides (or, when the first is named 'pacelab', instead of) the defaults:",
                    "NAME and the options given to both its server and client, e.g. --pacelab 'gso1=--gso 1'. Repeatable."})
    List<String> variants = new ArrayList<>();

    @Option(names = "--jar", paramLabel = "NAME=JAR",
            description = {"Run the pacelab variant NAME (see --pacelab; 'pacelab' for the defaults) from another build's",
                    "shaded jar, e.g. --jar pacelab=/tmp/old/pacelab.jar to compare two builds, with that build's JVM options",
                    "(its jvm-options list; a build without one: the three options every build had before it). Repeatable."})
    List<String> jars = new ArrayList<>();

    @Option(names = "--no-aot", paramLabel = "NAME",
            description = {"Run the pacelab variant NAME (see --pacelab; 'pacelab' for the defaults) without the JVM's",
                    "ahead-of-time caches of server and client (pacelab jvm-cache), e.g. --pacelab 'noaot=' --no-aot noaot",
                    "to measure what the caches buy. Repeatable."})
    List<String> noAot = new ArrayList<>();

    @Option(names = "--timeout", paramLabel = "TIME", converter = UnitConverters.Duration.class,
            description = "Longest a client may take (default: 600s).")
    long timeout = 600_000_000_000L;

    @Option(names = "--work", paramLabel = "DIR", converter = PathChecks.OutputDirectory.class,
            description = "Directory for the file, logs and downloads (default: a new temporary directory, removed afterwards).")
    Path work;

    @Option(names = "--keep", description = "Keep the work directory (logs of every run).")
    boolean keep;

    // checked before the runs: a directory or an unwritable place found only after an hour of runs loses them
    @Option(names = "--json", paramLabel = "FILE", converter = PathChecks.OutputFile.class,
            description = "Also write every run and the summary as JSON.")
    Path json;

    @Override
    public Integer call() throws Exception {
        PrintStream out = System.out;
        PrintStream err = System.err;
        PacelabLauncher launcher = Launchers.current();
        List<BenchStack> stacks = new ArrayList<>();
        List<String> pacelabNames = new ArrayList<>();
        try {
            Map<String, Path> jarOf = new LinkedHashMap<>();
            for (String j : jars) {
                int eq = j.indexOf('=');
                String name = eq < 0 ? "" : j.substring(0, eq).strip();
                Path jar = eq < 0 ? null : Path.of(j.substring(eq + 1).strip());
                if (name.isEmpty() || jar == null || !Files.isRegularFile(jar)) {
                    throw new IllegalArgumentException("--jar '" + j + "': write NAME=JAR with the path of an existing pacelab.jar");
                }
                jarOf.put(name, jar.toAbsolutePath());
            }
            if (variants.isEmpty() || !variants.getFirst().startsWith("pacelab=")) {
                stacks.add(new Stacks.Pacelab("pacelab", launcherFor("pacelab", launcher, jarOf, noAot), List.of()));
            }
            for (String v : variants) {
                int eq = v.indexOf('=');
                String name = eq < 0 ? "" : v.substring(0, eq).strip();
                if (name.isEmpty() || !name.matches("[A-Za-z0-9._-]+")) {
                    throw new IllegalArgumentException("--pacelab '" + v + "': write NAME=OPTIONS with a NAME of letters, digits, . _ -");
                }
                stacks.add(new Stacks.Pacelab(name, launcherFor(name, launcher, jarOf, noAot), split(v.substring(eq + 1))));
            }
            for (String name : jarOf.keySet()) {
                if (stacks.stream().noneMatch(st -> st.name().equals(name))) {
                    throw new IllegalArgumentException("--jar " + name + ": no pacelab variant has that name; name one with --pacelab");
                }
            }
            for (String name : noAot) {
                if (stacks.stream().noneMatch(st -> st.name().equals(name.strip()))) {
                    throw new IllegalArgumentException("--no-aot " + name + ": no pacelab variant has that name; name one with --pacelab");
                }
            }
            stacks.forEach(s -> pacelabNames.add(s.name()));
            for (String p : peers) {
                String name = p.strip();
                if (name.isEmpty()) {
                    continue;
                }
                BenchStack s = Stacks.peer(name, PeerCache.standard());
                if (s == null) {
                    throw new IllegalArgumentException("--peers: '" + name + "' is not a stack here; valid: " + String.join(", ", Stacks.PEERS));
                }
                stacks.add(s);
            }
            if (stacks.stream().map(BenchStack::name).distinct().count() != stacks.size()) {
                throw new IllegalArgumentException("--pacelab: two stacks have the same name; give each variant its own NAME");
            }
            if (size < 1 || size > (64L << 30)) {
                throw new IllegalArgumentException("--size must be 1 byte to 64GiB, got " + size);
            }
            if (reps < 1 || reps > 1000) {
                throw new IllegalArgumentException("--reps must be 1 to 1000, got " + reps);
            }
            String caches = unusableCaches(stacks, jarOf, noAot);
            if (caches != null) {
                throw new IllegalArgumentException(caches);
            }
        } catch (IllegalArgumentException e) {
            err.println("pacelab bench loopback: " + e.getMessage());
            return 2;
        }
        Host host = new Host();
        for (BenchStack s : stacks) {
            String why = s.unavailable(host);
            if (why != null) {
                err.println("pacelab bench loopback: " + s.name() + " cannot run here: " + why + " (drop it from --peers, or install it: "
                        + "scripts/install-peers.sh).");
                return 2;
            }
        }
        Path dir = work != null ? work : Files.createTempDirectory("pacelab-bench-");
        if (work != null && Files.exists(work) && !Files.isDirectory(work)) {
            err.println("pacelab bench loopback: --work " + work + " is not a directory.");
            return 2;
        }
        LoopbackBench bench = new LoopbackBench(stacks, new LoopbackBench.Settings(size, reps, timeout, dir, keep || work != null), out);
        Thread hook = new Thread(bench::shutdown, "bench-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        out.printf("pacelab bench loopback: %s file, %d runs per stack, alternating; %s%n", sizeText(size), reps,
                keep || work != null ? "work directory " + dir : "a temporary work directory");
        for (BenchStack s : stacks) {
            out.printf("  %-16s %s [%s]%n", s.name(), s.description(), s.version(host));
        }
        out.printf("  host: %d CPUs, Linux %s, Java %s%n", Runtime.getRuntime().availableProcessors(), host.kernelRelease(),
                System.getProperty("java.version"));
        out.println(BenchReport.runHeader());
        out.flush();
        List<LoopbackBench.Run> runs;
        try {
            runs = bench.run();
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running
            }
        }
        List<String> names = stacks.stream().map(BenchStack::name).toList();
        List<BenchReport.StackSummary> summary = BenchReport.summarize(names, runs);
        out.print(BenchReport.summary(summary, pacelabNames, runs));
        if (json != null) {
            Map<String, Object> header = new LinkedHashMap<>();
            header.put("benchmark", "pacelab bench loopback");
            header.put("date", Instant.now().toString());
            header.put("size_bytes", size);
            header.put("reps", reps);
            Map<String, String> versions = new LinkedHashMap<>();
            for (BenchStack s : stacks) {
                versions.put(s.name(), s.description() + " [" + s.version(host) + "]");
            }
            header.put("stacks_described", versions);
            header.put("cpus", Runtime.getRuntime().availableProcessors());
            header.put("kernel", host.kernelRelease());
            header.put("java", System.getProperty("java.version"));
            try {
                BenchReport.writeJson(json, header, summary, runs);
            } catch (IOException e) {
                err.println("pacelab bench loopback: --json " + json + ": cannot write (" + e.getMessage() + ").");
                return 1;
            }
        }
        return runs.stream().allMatch(LoopbackBench.Run::ok) ? 0 : 1;
    }

    /**
     * This build's launcher, or the same JVM command on another build's jar (with that build's caches); without the
     * ahead-of-time caches when the variant is named by --no-aot.
     */
    private static PacelabLauncher launcherFor(String name, PacelabLauncher current, Map<String, Path> jars, List<String> noAot) {
        Path jar = jars.get(name);
        PacelabLauncher l = jar == null ? current : Launchers.forClassPath(jar.toString());
        return noAot.stream().anyMatch(n -> n.strip().equals(name)) ? l.withJvmOptionsFor(Map.of()) : l;
    }

    /**
     * Every pacelab variant that is to run with ahead-of-time caches (all but --no-aot ones, unless PACELAB_AOT=off)
     * has caches the JVM uses: another build's jar (--jar) and this build's own, whose caches the launcher trained, so
     * that no variant runs silently without them (a jar copied without its timestamps does). Null, or the sentence
     * that stops the bench.
     */
    private static String unusableCaches(List<BenchStack> stacks, Map<String, Path> jarOf, List<String> noAot)
            throws InterruptedException {
        if ("off".equals(System.getenv("PACELAB_AOT"))) {
            return null;
        }
        for (BenchStack s : stacks) {
            if (!(s instanceof Stacks.Pacelab) || noAot.stream().anyMatch(n -> n.strip().equals(s.name()))) {
                continue;
            }
            Path jar = jarOf.containsKey(s.name()) ? jarOf.get(s.name()) : AotCaches.runningJar();
            if (jar == null) {
                continue; // this build from class directories: no caches to check
            }
            Map<String, String> why;
            try {
                why = AotCaches.unusable(jar, List.of("server", "client"));
            } catch (IOException e) {
                return "cannot start the JVM to check the ahead-of-time caches of " + jar + " (" + e.getMessage() + ").";
            }
            if (!why.isEmpty()) {
                List<String> parts = new ArrayList<>();
                why.forEach((sub, reason) -> parts.add(sub + ".aot " + reason));
                String train = jarOf.containsKey(s.name())
                        ? "'" + Path.of(System.getProperty("java.home"), "bin", "java") + " -jar " + jar + " jvm-cache'"
                        : "'./pacelab jvm-cache'";
                return "variant " + s.name() + ": the JVM would run without the ahead-of-time caches in "
                        + AotCaches.directory(jar) + " (" + String.join("; ", parts) + "); train them with " + train
                        + " (a copied build keeps its caches only with cp -p), or compare without caches with --no-aot "
                        + s.name() + ".";
            }
        }
        return null;
    }

    private static String sizeText(long bytes) {
        if (bytes % (1L << 30) == 0) {
            return bytes / (1L << 30) + " GiB";
        }
        if (bytes % (1L << 20) == 0) {
            return bytes / (1L << 20) + " MiB";
        }
        return bytes + "-byte";
    }

    /** Splits options on whitespace; single or double quotes keep a value with spaces together. */
    static List<String> split(String s) {
        CommandWords w = CommandWords.split(s);
        if (w.unclosedQuote() != 0) {
            throw new IllegalArgumentException("--pacelab: unbalanced quote in '" + s + "'");
        }
        return w.words();
    }
}
