package org.pacelab.lab.bench;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.pacelab.lab.peer.Launch;
import org.pacelab.lab.run.ChildProcess;
import org.pacelab.lab.run.Pki;
import org.pacelab.lab.run.PortProbe;
import org.pacelab.lab.run.ProcessSupervisor;

/**
 * {@code pacelab bench loopback}: unshaped goodput over loopback of pacelab and other stacks, each with its defaults,
 * in the same session and alternating, as the QUIC on the Highway study compares stacks.
 *
 * <p>Each run starts the stack's server afresh, waits until its port is bound, then runs its client, which downloads
 * the same file (random bytes) into a directory on disk. Measured per run:
 * <ul>
 *   <li>goodput = file bits / the client process's whole life (start to exit: JVM start, TLS handshake, writing the
 *       file included);</li>
 *   <li>CPU seconds per GiB of the client (its whole life: user + system of all threads, from /proc through the
 *       {@code sh} that waits for it) and of the server (its whole life up to the client's exit, its descendants
 *       included, from /proc just before it is stopped);</li>
 *   <li>the server's start: from its launch until its port is bound;</li>
 *   <li>the 1-minute load average before and after.</li>
 * </ul>
 * The downloaded file is compared with the original byte for byte after each run (outside the timing) and deleted.
 */
public final class LoopbackBench {
    /** The file every client downloads. */
    static final String FILE = "file";
    private static final long SERVER_START_LIMIT_NS = 60_000_000_000L;
    private static final long STOP_GRACE_MILLIS = 3_000;

    /**
     * @param size      bytes of the file
     * @param reps      runs per stack
     * @param timeoutNs longest a client may take
     * @param workDir   where the file, certificates, logs and downloads go (created; removed afterwards unless
     *                  {@code keep})
     */
    public record Settings(long size, int reps, long timeoutNs, Path workDir, boolean keep) {
        public Settings {
            if (size < 1) {
                throw new IllegalArgumentException("--size must be at least 1 byte, got " + size);
            }
            if (reps < 1 || reps > 1000) {
                throw new IllegalArgumentException("--reps must be 1 to 1000, got " + reps);
            }
        }
    }

    /**
     * One run of one stack.
     *
     * @param failure       null when the file arrived intact, else why not
     * @param wallNs        the client's life
     * @param serverStartNs from the server's launch until its port was bound
     */
    public record Run(String stack, int rep, String failure, long bytes, long wallNs, long clientCpuNs, long serverCpuNs,
                      long serverStartNs, double loadBefore, double loadAfter) {
        public boolean ok() {
            return failure == null;
        }

        public double mbitPerSecond() {
            return bytes * 8e3 / wallNs;
        }

        public double clientCpuPerGib() {
            return clientCpuNs / 1e9 / (bytes / (double) (1L << 30));
        }

        public double serverCpuPerGib() {
            return serverCpuNs / 1e9 / (bytes / (double) (1L << 30));
        }
    }

    private final List<BenchStack> stacks;
    private final Settings settings;
    private final PrintStream out;
    private final ProcessSupervisor supervisor;

    public LoopbackBench(List<BenchStack> stacks, Settings settings, PrintStream out) {
        this.stacks = List.copyOf(stacks);
        this.settings = settings;
        this.out = out;
        this.supervisor = new ProcessSupervisor(settings.workDir().resolve("processes"));
    }

    /** Stops every process this benchmark started (the Ctrl-C hook). */
    public void shutdown() {
        supervisor.shutdown(STOP_GRACE_MILLIS);
    }

    /** Runs every stack {@code reps} times, alternating (the order rotates each repetition); returns every run. */
    public List<Run> run() throws IOException, InterruptedException {
        Path work = settings.workDir();
        Files.createDirectories(work);
        Path root = Files.createDirectories(work.resolve("www"));
        writeRandomFile(root.resolve(FILE), settings.size());
        // the campaigns' RSA certificate: every stack reads it (GnuTLS refuses the JDK's EC key encoding)
        Pki pki = Pki.prepare(work);
        Path cert = pki.certificate();
        Path key = pki.privateKey();
        List<Run> runs = new ArrayList<>();
        try {
            for (int rep = 1; rep <= settings.reps(); rep++) {
                for (int k = 0; k < stacks.size(); k++) {
                    BenchStack s = stacks.get((k + rep - 1) % stacks.size());
                    Run r = runOnce(s, rep, root, cert, key);
                    runs.add(r);
                    out.println(BenchReport.runLine(r));
                    out.flush();
                }
            }
        } finally {
            supervisor.stopAll(STOP_GRACE_MILLIS);
            if (!settings.keep()) {
                deleteTree(work);
            }
        }
        return runs;
    }

    private Run runOnce(BenchStack stack, int rep, Path root, Path cert, Path key) throws IOException, InterruptedException {
        Path dir = Files.createDirectories(settings.workDir().resolve(stack.name() + "-" + rep));
        Path downloads = Files.createDirectories(dir.resolve("downloads"));
        int port = PortProbe.freePort();
        Launch server = stack.server(dir, port, root, cert, key);
        double loadBefore = ProcCpu.loadAverage();
        long launched = System.nanoTime();
        ChildProcess sp = supervisor.start(stack.name() + " server", server.command(), server.environment(), dir,
                dir.resolve("server.out"), dir.resolve("server.err"));
        try {
            long serverStart = awaitReady(sp, server);
            if (serverStart < 0) {
                return failed(stack, rep, sp.alive() ? "the server did not bind its port within 60 s: " + sp.tail()
                        : "the server exited with status " + sp.process().exitValue() + " before it was ready: " + sp.tail(), loadBefore);
            }
            Path stat = dir.resolve("client.stat");
            // sh waits for the client, then its own cutime/cstime are the client's whole CPU time
            List<String> cmd = new ArrayList<>(List.of("sh", "-c", "\"$@\"; rc=$?; cat /proc/$$/stat > \"$PACELAB_BENCH_STAT\"; exit $rc", "sh"));
            cmd.addAll(stack.client(port, FILE, downloads));
            ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile())
                    .redirectOutput(dir.resolve("client.out").toFile()).redirectError(dir.resolve("client.err").toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            pb.environment().put("PACELAB_BENCH_STAT", stat.toString());
            long start = System.nanoTime();
            Process client = pb.start();
            boolean exited = client.waitFor(settings.timeoutNs(), TimeUnit.NANOSECONDS);
            long wall = System.nanoTime() - start;
            long serverCpu = ProcCpu.treeNanos(sp.process().toHandle());
            supervisor.stop(sp, STOP_GRACE_MILLIS);
            double loadAfter = ProcCpu.loadAverage();
            if (!exited) {
                client.descendants().forEach(ProcessHandle::destroyForcibly);
                client.destroyForcibly();
                client.waitFor(5, TimeUnit.SECONDS);
                return new Run(stack.name(), rep, "the client did not finish within " + settings.timeoutNs() / 1_000_000_000L + " s",
                        0, wall, 0, serverCpu, serverStart, loadBefore, loadAfter);
            }
            long clientCpu = Files.isRegularFile(stat) ? ProcCpu.waitedChildrenNanos(Files.readString(stat, StandardCharsets.US_ASCII)) : 0;
            Path got = stack.downloaded(downloads, FILE);
            String failure = null;
            if (client.exitValue() != 0) {
                failure = "the client exited with status " + client.exitValue() + ": " + tail(dir);
            } else {
                failure = compare(root.resolve(FILE), got);
            }
            Files.deleteIfExists(got);
            return new Run(stack.name(), rep, failure, settings.size(), wall, clientCpu, serverCpu, serverStart, loadBefore, loadAfter);
        } finally {
            if (sp.alive()) {
                supervisor.stop(sp, STOP_GRACE_MILLIS);
            }
        }
    }

    private Run failed(BenchStack stack, int rep, String why, double loadBefore) {
        return new Run(stack.name(), rep, why, 0, 0, 0, 0, 0, loadBefore, ProcCpu.loadAverage());
    }

    /** Polls every 2 ms until the server's port is bound; returns the time it took, or -1. */
    private static long awaitReady(ChildProcess sp, Launch server) throws InterruptedException {
        long deadline = sp.startNanos() + SERVER_START_LIMIT_NS;
        while (!PortProbe.ready(sp.pid(), server.readiness())) {
            if (!sp.alive() || System.nanoTime() > deadline) {
                return -1;
            }
            Thread.sleep(2);
        }
        return System.nanoTime() - sp.startNanos();
    }

    private static String tail(Path dir) {
        for (String f : List.of("client.err", "client.out")) {
            try {
                List<String> lines = Files.readAllLines(dir.resolve(f), StandardCharsets.UTF_8).stream().filter(l -> !l.isBlank()).toList();
                if (!lines.isEmpty()) {
                    String last = lines.getLast().strip();
                    return last.length() > 300 ? last.substring(0, 300) + "..." : last;
                }
            } catch (IOException | java.io.UncheckedIOException e) {
                // try the next file
            }
        }
        return "(no output)";
    }

    /** Null when {@code got} holds exactly the bytes of {@code expected}, else what differs. */
    static String compare(Path expected, Path got) throws IOException {
        if (!Files.isRegularFile(got)) {
            return "the client wrote no file " + got.getFileName();
        }
        long a = Files.size(expected);
        long b = Files.size(got);
        if (a != b) {
            return "the downloaded file has " + b + " bytes, not " + a;
        }
        try (FileChannel x = FileChannel.open(expected); FileChannel y = FileChannel.open(got)) {
            ByteBuffer bx = ByteBuffer.allocateDirect(1 << 22);
            ByteBuffer by = ByteBuffer.allocateDirect(1 << 22);
            long offset = 0;
            while (offset < a) {
                bx.clear();
                by.clear();
                readFully(x, bx, offset);
                readFully(y, by, offset);
                bx.flip();
                by.flip();
                int m = bx.mismatch(by);
                if (m >= 0) {
                    return "the downloaded file differs from the original at byte " + (offset + m);
                }
                offset += bx.limit();
            }
        }
        return null;
    }

    private static void readFully(FileChannel ch, ByteBuffer b, long offset) throws IOException {
        while (b.hasRemaining()) {
            int n = ch.read(b, offset + b.position());
            if (n < 0) {
                break;
            }
        }
    }

    /** Writes {@code size} pseudo-random bytes (fixed seed), so no stack can profit from compressible content. */
    public static void writeRandomFile(Path file, long size) throws IOException {
        SplittableRandom random = new SplittableRandom(0x9ace1abL);
        byte[] block = new byte[1 << 20];
        try (OutputStream o = Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE)) {
            long left = size;
            while (left > 0) {
                random.nextBytes(block);
                int n = (int) Math.min(block.length, left);
                o.write(block, 0, n);
                left -= n;
            }
        }
    }

    private static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException | java.io.UncheckedIOException e) {
            // best effort: a leftover temporary directory is harmless
        }
    }

    static String format(String pattern, Object... args) {
        return String.format(Locale.ROOT, pattern, args);
    }
}
