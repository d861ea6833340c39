package org.pacelab.cli;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.pacelab.lab.bench.LoopbackBench;
import org.pacelab.lab.peer.PacelabLauncher;
import org.pacelab.lab.peer.Readiness;
import org.pacelab.lab.run.Pki;
import org.pacelab.lab.run.PortProbe;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code pacelab jvm-cache}: trains the ahead-of-time caches of {@code pacelab server} and {@code pacelab client}
 * ({@link AotCaches}) with a loopback download of a file to disk, and that of {@code pacelab sim} with a short
 * simulated download (quic-steps, analyzer included), each JVM writing its cache when it exits
 * ({@code -XX:AOTCacheOutput}). The {@code ./pacelab} launcher runs it after each build.
 */
@Command(name = "jvm-cache", mixinStandardHelpOptions = true,
        description = {"Trains the JVM's ahead-of-time caches (JDK 25 AOT cache: classes loaded and linked, method profiles)",
                "of 'pacelab server' and 'pacelab client' with a loopback download, and of 'pacelab sim' with a simulated one,",
                "and stores them beside the jar in aot/. The ./pacelab launcher runs it after each build and starts servers,",
                "clients and simulations with them."})
public final class JvmCacheCommand implements Callable<Integer> {
    private static final long SERVER_READY_LIMIT_NS = 120_000_000_000L;

    @Spec CommandSpec spec;

    /**
     * 1 GiB, not less: the cached profiles (JEP 515) are what C2 compiles the packet paths with, so the training must
     * take the branches a long transfer takes. Trained on 128 MiB, the server's ACK-due-at-once branch had never been
     * taken, and in a 1 GiB download taking it made C2 throw away and recompile {@code QuicConnection.send} (3 C2
     * compilations of it per server instead of 1); the server used 0.80-0.87x the CPU with the 1 GiB training in four
     * sessions, the client 0.93-1.10x, both together 2-11 % less (docs/benchmarks.md, "The training's phases").
     */
    @Option(names = "--size", paramLabel = "SIZE", converter = UnitConverters.Size.class,
            description = "Size of the training download (default: 1GiB: long enough that the cached profiles hold the "
                    + "branches a long transfer takes).")
    long size = 1L << 30;

    @Option(names = "--sim-size", paramLabel = "SIZE", converter = UnitConverters.Size.class,
            description = "Size of the simulated training download (default: 20MiB).")
    long simSize = 20L << 20;

    @Override
    public Integer call() throws Exception {
        PrintStream err = System.err;
        Path jar = AotCaches.runningJar();
        if (jar == null) {
            err.println("pacelab jvm-cache: this pacelab runs from class directories, not from its jar; the caches belong beside "
                    + "the jar (cli/target/pacelab.jar: run ./pacelab jvm-cache).");
            return 2;
        }
        if (size < (1L << 20) || size > (4L << 30)) {
            err.println("pacelab jvm-cache: --size must be 1MiB to 4GiB, got " + size + " bytes.");
            return 2;
        }
        if (simSize < (1L << 20) || simSize > (1L << 30)) {
            err.println("pacelab jvm-cache: --sim-size must be 1MiB to 1GiB, got " + simSize + " bytes.");
            return 2;
        }
        Path work = Files.createTempDirectory("pacelab-jvm-cache-");
        Path dir = Files.createDirectories(AotCaches.directory(jar));
        try {
            String why = train(jar, work, dir);
            if (why != null) {
                err.println("pacelab jvm-cache: no cache made: " + why + " (pacelab runs without one).");
                return 1;
            }
            for (String s : List.of("server", "client")) {
                Files.move(fresh(dir, s), AotCaches.file(jar, s), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            }
            String simWhy = trainSim(jar, work, dir);
            if (simWhy != null) {
                err.println("pacelab jvm-cache: caches for server and client in " + dir + "; none for sim: " + simWhy
                        + " (pacelab sim runs without one).");
                return 1;
            }
            Files.move(fresh(dir, "sim"), AotCaches.file(jar, "sim"), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            err.println("pacelab jvm-cache: caches for " + String.join(", ", AotCaches.SUBCOMMANDS) + " in " + dir);
            return 0;
        } finally {
            for (String s : AotCaches.SUBCOMMANDS) {
                Files.deleteIfExists(fresh(dir, s));
            }
            deleteTree(work);
        }
    }

    /** Where a training JVM writes its cache before it is renamed into place. */
    private static Path fresh(Path dir, String subcommand) {
        return dir.resolve("." + subcommand + ".aot.new");
    }

    /** Runs the training download; null when both caches were written, else why not. */
    private String train(Path jar, Path work, Path dir) throws IOException, InterruptedException {
        Path root = Files.createDirectories(work.resolve("www"));
        LoopbackBench.writeRandomFile(root.resolve("file"), size);
        Pki pki = Pki.prepare(work);
        int port = PortProbe.freePort();
        PacelabLauncher plain = Launchers.forClassPath(jar.toString()).withJvmOptionsFor(Map.of());
        PacelabLauncher recording = plain.withJvmOptionsFor(Map.of(
                "server", List.of("-XX:AOTCacheOutput=" + fresh(dir, "server")),
                "client", List.of("-XX:AOTCacheOutput=" + fresh(dir, "client"))));
        Process server = start(recording.command(List.of("server", "--listen", "127.0.0.1:" + port, "--root", root.toString(),
                "--cert", pki.certificate().toString(), "--key", pki.privateKey().toString())), work, "server");
        try {
            long deadline = System.nanoTime() + SERVER_READY_LIMIT_NS;
            while (!PortProbe.ready(server.pid(), new Readiness.UdpBound(port))) {
                if (!server.isAlive() || System.nanoTime() > deadline) {
                    return "the training server did not start (see " + work.resolve("server.log") + ")";
                }
                Thread.sleep(10);
            }
            Path downloads = Files.createDirectories(work.resolve("downloads"));
            Process client = start(recording.command(List.of("client", "--insecure", "--output", downloads.toString(),
                    "https://127.0.0.1:" + port + "/file")), work, "client");
            if (!client.waitFor(600, TimeUnit.SECONDS)) {
                client.destroyForcibly();
                return "the training download did not finish within 600 s";
            }
            if (client.exitValue() != 0) {
                return "the training download failed: " + lastLine(work.resolve("client.log"));
            }
        } finally {
            // SIGTERM: the server exits normally and writes its cache on the way out
            server.destroy();
            if (!server.waitFor(300, TimeUnit.SECONDS)) {
                server.destroyForcibly();
            }
        }
        for (String s : List.of("server", "client")) {
            if (!Files.isRegularFile(fresh(dir, s))) {
                return "the " + s + " JVM wrote no cache: " + lastLine(work.resolve(s + ".log"));
            }
        }
        return null;
    }

    /**
     * Runs the simulated training download ({@code pacelab sim} with its defaults, the quic-steps link and the
     * analyzer, as users run it); null when its cache was written, else why not. The cache holds the classes and
     * method profiles of the simulator, the QUIC stack and the analyzer (docs/benchmarks.md, "Simulator").
     */
    private String trainSim(Path jar, Path work, Path dir) throws IOException, InterruptedException {
        PacelabLauncher recording = Launchers.forClassPath(jar.toString()).withJvmOptionsFor(Map.of(
                "sim", List.of("-XX:AOTCacheOutput=" + fresh(dir, "sim"))));
        Process sim = start(recording.command(List.of("sim", "--preset", "quic-steps", "--size", Long.toString(simSize),
                "--seed", "1", "--out", work.resolve("sim").toString())), work, "sim");
        if (!sim.waitFor(600, TimeUnit.SECONDS)) {
            sim.destroyForcibly();
            return "the simulated training download did not finish within 600 s";
        }
        if (sim.exitValue() != 0) {
            return "the simulated training download failed: " + lastLine(work.resolve("sim.log"));
        }
        if (!Files.isRegularFile(fresh(dir, "sim"))) {
            return "the sim JVM wrote no cache: " + lastLine(work.resolve("sim.log"));
        }
        return null;
    }

    private static Process start(List<String> command, Path work, String name) throws IOException {
        List<String> c = new ArrayList<>(command);
        return new ProcessBuilder(c).directory(work.toFile()).redirectErrorStream(true)
                .redirectOutput(work.resolve(name + ".log").toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
    }

    private static String lastLine(Path log) {
        try {
            List<String> lines = Files.readAllLines(log).stream().filter(l -> !l.isBlank()).toList();
            return lines.isEmpty() ? "(no output)" : lines.getLast().strip();
        } catch (IOException e) {
            return "(no log)";
        }
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException | java.io.UncheckedIOException e) {
            // a leftover temporary directory is harmless
        }
    }
}
