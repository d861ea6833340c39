package org.pacelab.net.driver;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.pacelab.net.link.Direction;
import org.pacelab.net.link.Link;
import org.pacelab.net.spec.SpecException;
import org.pacelab.net.sys.JitCompilers;

/**
 * The emulator's warm-up: before a front-end reports ready, synthetic traffic runs through a copy of it — the same
 * classes and methods as the live path: its loop pass (ppoll, the native reads, the link model with every stage the
 * spec configures, the real-time driver, the native writes, the tap and event-log writers and the counters), each
 * copy with its own descriptors (loopback sockets or socket pairs), its own temporary tap and event log (deleted
 * afterwards), its own counters and statistics. A cold JVM interprets the emulator's path for the first seconds of
 * the measured transfer and compiles it meanwhile; measured (docs/benchmarks.md, "The ACK clock"), that delayed
 * 43–49 % of the ACKs in the first second by more than 2 ms and hid the ACK trains HyStart looks for.
 *
 * <p>The traffic: a few transfers one after the other from an idle link, each started by one request per flow from
 * the client side; the server side answers with data packets of 700–1448 bytes under a window that doubles per
 * round trip until a loss, then halves (so the queue fills and drops, as in slow start), and the client side
 * acknowledges every second packet with a 40-byte packet. The copy's clock is fast-forwarded to its next event
 * ({@link ModelClock#skip}) instead of waiting for it, so the warm-up takes the CPU time of the packets, not the
 * link's time; one wait in {@value #REAL_WAIT_EVERY} is made in real time (sleep in ppoll, then spin), so the
 * waiting branches are compiled too, and every transfer starts from an idle link (the long-wait branch).
 */
public final class WarmUp {
    /** Packets of {@code on}, split over {@link #COPIES} copies (measured cost: net/README.md "Warm-up"). */
    public static final int DEFAULT_PACKETS = 30_000;
    public static final int MIN_PACKETS = 100;
    public static final int MAX_PACKETS = 10_000_000;
    /**
     * The whole warm-up (every copy and the settling after them) stops after this long even if it has not pushed all its
     * packets (a very slow host): well inside the 60 s a runner waits for the emulator to report ready, JVM start included.
     */
    public static final long LIMIT_NANOS = 30_000_000_000L;
    /** The prefix of the warm-up's temporary directories: {@code pacelab-warmup-<pid>-<random>}. */
    static final String DIR_PREFIX = "pacelab-warmup-";
    /**
     * Fresh copies the packets are split over, one after the other: a second copy meets the branches a fresh front-end
     * takes first (its first flow, an empty bucket and queue) with code C2 compiled from the first copy's profile, and
     * what that deoptimizes is compiled again before the real front-end starts. Measured with -XX:+PrintCompilation
     * (net/README.md "Warm-up"): after one copy of 30000 packets a further copy still met 4 deoptimizations and 34 other
     * compilations of the live path; after two of 15000, none and 4.
     */
    public static final int COPIES = 2;
    /** The line a front-end prints when the warm-up is off. */
    public static final String OFF = "warm-up: off (the emulator's code starts cold)";

    static final int INITIAL_WINDOW = 10;
    static final int TRANSFERS = 5;
    static final int BURST = 32;
    static final int REAL_WAIT_EVERY = 64;
    static final long REAL_SLEEP_NANOS = 20_000;
    static final int ACK_BYTES = 40;
    private static final int[] DATA_BYTES = {1448, 1448, 1448, 1448, 1448, 1448, 1448, 700};
    static final byte REQUEST = 1, DATA = 2, ACK = 3;
    /** Bytes of the warm-up's own header in each payload: kind, flow, two ints. */
    static final int HEADER = 10;

    private WarmUp() {}

    /**
     * Parses the option's value: {@code off} (0), {@code on} ({@value #DEFAULT_PACKETS} packets) or a number of
     * packets from {@value #MIN_PACKETS} to {@value #MAX_PACKETS}.
     */
    public static int parse(String option, String text) throws SpecException {
        String t = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
        if (t.equals("off")) return 0;
        if (t.equals("on")) return DEFAULT_PACKETS;
        try {
            long n = Long.parseLong(t.replace("_", ""));
            if (n >= MIN_PACKETS && n <= MAX_PACKETS) return (int) n;
        } catch (NumberFormatException e) {
            // falls through to the sentence below
        }
        throw new SpecException(option + ": '" + text + "' is not valid; use off, on (" + DEFAULT_PACKETS
                + " packets) or a number of packets from " + MIN_PACKETS + " to " + MAX_PACKETS);
    }

    /** The option's value for a packet count: {@code off} for 0, else the number. */
    public static String word(int packets) {
        return packets <= 0 ? "off" : Integer.toString(packets);
    }

    /** The packets copy {@code copy} (0 to {@link #COPIES} - 1) of a warm-up of {@code packets} runs. */
    public static int share(int packets, int copy) {
        return packets / COPIES + (copy == COPIES - 1 ? packets % COPIES : 0);
    }

    /** One pass of a front-end's live loop (wait, read what is ready, advance the model to now). */
    @FunctionalInterface
    public interface Pass {
        void run() throws IOException;
    }

    /** Where the warm-up's packets enter the front-end's copy and leave it: the server's side and the clients' side. */
    public interface Ends {
        /** Flows (client/server pairs) the warm-up drives. */
        int flows();

        /**
         * Writes a packet of {@code flow} whose payload is {@code payload[0, length)} into the copy from the server's
         * side ({@code DOWN}) or the client's ({@code UP}); false when that cannot happen now (a full buffer, a flow the
         * server side has not heard from yet).
         */
        boolean send(Direction d, int flow, byte[] payload, int length) throws IOException;

        /**
         * Reads one packet the copy delivered at the client's side ({@code DOWN}) or the server's ({@code UP}) into
         * {@code payload}; its payload length, or -1 when none is waiting.
         */
        int receive(Direction d, byte[] payload) throws IOException;
    }

    /**
     * What the warm-up did.
     *
     * @param packets      packets written into the copy (both directions)
     * @param delivered    packets the copy delivered (both directions)
     * @param trafficNanos wall time of the traffic
     * @param modelNanos   model time the copy's link ran for
     * @param settleNanos  wall time then spent waiting for the JIT compilers to finish (and one collection)
     * @param timeLimited  whether the traffic stopped at the warm-up's deadline ({@link #LIMIT_NANOS} for all copies)
     * @param asked        packets asked for
     */
    public record Result(long packets, long delivered, long trafficNanos, long modelNanos, long settleNanos,
                         boolean timeLimited, int asked) {
        /** One line for the emulator's output (it starts with {@code warm-up: N packets}). */
        public String describe() {
            return String.format(Locale.ROOT, "warm-up: %d packets through %d fresh copies of the link (%d delivered, %.1f s of model "
                            + "time) in %d ms, then %d ms until the JIT compilers were idle%s; the tap, event log and counters "
                            + "start empty", packets, COPIES, delivered, modelNanos / 1e9, trafficNanos / 1_000_000,
                    settleNanos / 1_000_000, timeLimited ? " (stopped at the warm-up's " + LIMIT_NANOS / 1_000_000_000L
                            + " s limit for all copies and settling; " + asked + " asked)" : "");
        }

        /** This copy's traffic and {@code next}'s together ({@code sum} null: the first copy). */
        public static Result plus(Result sum, Result next) {
            if (sum == null) return next;
            return new Result(sum.packets + next.packets, sum.delivered + next.delivered, sum.trafficNanos + next.trafficNanos,
                    sum.modelNanos + next.modelNanos, sum.settleNanos + next.settleNanos, sum.timeLimited || next.timeLimited,
                    sum.asked + next.asked);
        }

        Result settled(long nanos) {
            return new Result(packets, delivered, trafficNanos, modelNanos, nanos, timeLimited, asked);
        }
    }

    /**
     * One fresh copy of a front-end: builds it with its tap and event log (if any) in {@code dir}, drives {@code packets}
     * packets through it ({@link #drive}) until {@code deadline} ({@link System#nanoTime}), closes it and discards its files.
     */
    @FunctionalInterface
    public interface Copy {
        Result run(Path dir, int packets, long deadline) throws IOException, SpecException;
    }

    /**
     * The warm-up of a front-end: {@code packets} packets through {@link #COPIES} fresh copies in turn, then
     * {@link #settle}, all within {@link #LIMIT_NANOS}. Each copy gets its own directory under a temporary directory
     * {@code pacelab-warmup-<pid>-*} in {@code parent}, which is deleted afterwards; a process killed during its warm-up
     * cannot delete it, so first this user's such directories whose process is no longer alive are deleted.
     */
    public static Result run(Path parent, int packets, Copy copy) throws IOException, SpecException {
        long deadline = System.nanoTime() + LIMIT_NANOS;
        deleteStale(parent);
        Path dir = Files.createTempDirectory(parent, DIR_PREFIX + ProcessHandle.current().pid() + "-");
        try {
            Result sum = null;
            for (int i = 0; i < COPIES; i++) {
                sum = Result.plus(sum, copy.run(Files.createDirectory(dir.resolve("copy-" + i)), share(packets, i), deadline));
            }
            return settle(sum, deadline);
        } finally {
            deleteTree(dir);
        }
    }

    /** The directory the warm-up's temporary directory goes in when the caller names none: {@code java.io.tmpdir}. */
    public static Path tmpdir() {
        return Path.of(System.getProperty("java.io.tmpdir"));
    }

    /**
     * Deletes the {@code pacelab-warmup-<pid>-*} directories in {@code parent} that this user owns and whose process is
     * not alive (what a warm-up killed before its cleanup left). A live process's directory, another user's, or a name
     * without a pid is left alone; what cannot be deleted stays (it holds nothing of any run).
     */
    static void deleteStale(Path parent) {
        String me = System.getProperty("user.name");
        List<Path> stale = new ArrayList<>();
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(parent, DIR_PREFIX + "*")) {
            for (Path p : dirs) {
                long pid = pid(p.getFileName().toString());
                if (pid < 0 || ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) continue;
                if (!Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) continue;
                if (!Files.getOwner(p, LinkOption.NOFOLLOW_LINKS).getName().equals(me)) continue;
                stale.add(p);
            }
        } catch (IOException e) {
            return; // nothing listed, nothing deleted
        }
        for (Path p : stale) deleteTree(p);
    }

    /** The pid in a name {@code pacelab-warmup-<pid>-<random>}, or -1. */
    static long pid(String name) {
        if (!name.startsWith(DIR_PREFIX)) return -1;
        int dash = name.indexOf('-', DIR_PREFIX.length());
        if (dash <= DIR_PREFIX.length()) return -1;
        try {
            return Long.parseLong(name.substring(DIR_PREFIX.length(), dash));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        } catch (IOException | UncheckedIOException e) {
            // a temporary directory left behind holds nothing of the run; the next warm-up deletes it
        }
    }

    /**
     * Drives {@code packets} packets through a front-end's copy until {@code deadline} ({@link System#nanoTime}):
     * {@code pass} is one pass of its live loop over {@code driver} and {@code link}; {@code ends} are the copy's far ends.
     */
    public static Result drive(RealTimeDriver driver, Link link, Pass pass, Ends ends, int packets, long deadline)
            throws IOException {
        return new Traffic(driver, link, pass, ends, packets, deadline).run();
    }

    /**
     * Waits until the JIT compilers are quiet ({@link JitCompilers#awaitQuiet}: at most 5 s, and not past
     * {@code deadline}), so what the warm-up queued for compilation is installed before the measured transfer, then
     * collects the copies' garbage.
     */
    static Result settle(Result r, long deadline) {
        long t0 = System.nanoTime();
        JitCompilers.awaitQuiet(deadline);
        System.gc();
        return r.settled(System.nanoTime() - t0);
    }

    /** The synthetic transfers: per flow a window that doubles per round trip until a loss, then halves. */
    private static final class Traffic {
        private final RealTimeDriver driver;
        private final ModelClock clock;
        private final Link link;
        private final Pass pass;
        private final Ends ends;
        private final int packets;
        private final long deadline;
        private final int flows;
        private final int quota;
        private final byte[] out = new byte[2048];
        private final byte[] in = new byte[65536];
        // server side, per flow
        private final boolean[] started;
        private final int[] sentInTransfer, nextSeq, highestAcked, lossesSeen, recoverUntil;
        private final double[] window;
        private final boolean[] slowStart;
        // client side, per flow
        private final int[] received, highestSeen, sinceAck;
        private long offered, delivered;
        private long waits;
        private long realUntil = Long.MIN_VALUE;
        private int sizeIndex;

        Traffic(RealTimeDriver driver, Link link, Pass pass, Ends ends, int packets, long deadline) {
            this.deadline = deadline;
            this.driver = driver;
            this.clock = driver.clock();
            this.link = link;
            this.pass = pass;
            this.ends = ends;
            this.packets = packets;
            this.flows = ends.flows();
            this.quota = Math.max(50, packets * 2 / 3 / TRANSFERS / flows);
            started = new boolean[flows];
            sentInTransfer = new int[flows];
            nextSeq = new int[flows];
            highestAcked = new int[flows];
            lossesSeen = new int[flows];
            recoverUntil = new int[flows];
            window = new double[flows];
            slowStart = new boolean[flows];
            received = new int[flows];
            highestSeen = new int[flows];
            sinceAck = new int[flows];
            java.util.Arrays.fill(highestAcked, -1);
            java.util.Arrays.fill(highestSeen, -1);
            java.util.Arrays.fill(recoverUntil, -1);
        }

        Result run() throws IOException {
            long t0 = System.nanoTime();
            long model0 = clock.now();
            boolean timeLimited = false;
            long read = 0; // packets written before the copy's last pass, which read them
            startTransfer();
            while (true) {
                if (System.nanoTime() - deadline > 0) {
                    timeLimited = true;
                    break;
                }
                receiveAll();
                serverSends();
                if (offered == read) {
                    // nothing for the copy to read: let its clock run on to its next event
                    long next = link.nextEventTime();
                    if (next == Long.MAX_VALUE) {
                        if (offered >= packets) break;
                        if (transferDone()) startTransfer();
                        else timeout();
                        if (offered == read) continue;
                    } else if (clock.now() >= realUntil) {
                        skipTo(next);
                    }
                }
                read = offered;
                pass.run();
            }
            return new Result(offered, delivered, System.nanoTime() - t0, clock.now() - model0, 0, timeLimited, packets);
        }

        /** Fast-forwards the copy's clock to {@code next}; one wait in REAL_WAIT_EVERY is left to real time. */
        private void skipTo(long next) {
            long now = clock.now();
            if (next <= now) return;
            if (++waits % REAL_WAIT_EVERY == 0) {
                long lead = driver.spinNanos() + REAL_SLEEP_NANOS;
                if (next - now > lead) clock.skip(next - now - lead);
                realUntil = next;
            } else {
                clock.skip(next - now);
            }
        }

        private void startTransfer() throws IOException {
            for (int f = 0; f < flows; f++) {
                started[f] = false;
                send(Direction.UP, f, REQUEST, 0, 0, ACK_BYTES);
            }
        }

        private boolean transferDone() {
            for (int f = 0; f < flows; f++) {
                if (!started[f] || sentInTransfer[f] < quota) return false;
            }
            return true;
        }

        /** The link went idle with the transfer unfinished (its last packets or a request lost): resend, as an RTO would. */
        private void timeout() throws IOException {
            for (int f = 0; f < flows; f++) {
                if (!started[f]) {
                    send(Direction.UP, f, REQUEST, 0, 0, ACK_BYTES);
                } else {
                    highestAcked[f] = nextSeq[f] - 1;
                    window[f] = INITIAL_WINDOW;
                    slowStart[f] = false;
                }
            }
        }

        private void receiveAll() throws IOException {
            int n;
            while ((n = ends.receive(Direction.DOWN, in)) >= 0) {
                delivered++;
                if (n < HEADER || in[0] != DATA) continue;
                int f = in[1];
                if (f < 0 || f >= flows) continue;
                int seq = ByteBuffer.wrap(in).getInt(2);
                received[f]++;
                highestSeen[f] = Math.max(highestSeen[f], seq);
                if (++sinceAck[f] >= 2 && send(Direction.UP, f, ACK, highestSeen[f], received[f], ACK_BYTES)) sinceAck[f] = 0;
            }
            while ((n = ends.receive(Direction.UP, in)) >= 0) {
                delivered++;
                if (n < HEADER) continue;
                int f = in[1];
                if (f < 0 || f >= flows) continue;
                if (in[0] == REQUEST) {
                    started[f] = true;
                    sentInTransfer[f] = 0;
                    window[f] = INITIAL_WINDOW;
                    slowStart[f] = true;
                } else if (in[0] == ACK) {
                    ByteBuffer b = ByteBuffer.wrap(in);
                    acknowledged(f, b.getInt(2), b.getInt(6));
                }
            }
        }

        /** The client side has seen up to {@code highest} and received {@code count} packets of flow {@code f}. */
        private void acknowledged(int f, int highest, int count) {
            int newly = highest - highestAcked[f];
            if (newly <= 0) return;
            highestAcked[f] = highest;
            int lost = highest + 1 - count;
            if (lost > lossesSeen[f]) {
                lossesSeen[f] = lost;
                if (highest > recoverUntil[f]) {
                    window[f] = Math.max(INITIAL_WINDOW, window[f] / 2);
                    slowStart[f] = false;
                    recoverUntil[f] = nextSeq[f] - 1;
                }
                return;
            }
            window[f] += slowStart[f] ? newly : (double) newly / window[f];
        }

        private void serverSends() throws IOException {
            int burst = 0;
            boolean more = true;
            while (more && burst < BURST) {
                more = false;
                for (int f = 0; f < flows && burst < BURST; f++) {
                    if (!started[f] || sentInTransfer[f] >= quota) continue;
                    if (nextSeq[f] - 1 - highestAcked[f] >= window[f]) continue;
                    int size = DATA_BYTES[sizeIndex++ % DATA_BYTES.length];
                    if (!send(Direction.DOWN, f, DATA, nextSeq[f], 0, size)) return;
                    nextSeq[f]++;
                    sentInTransfer[f]++;
                    burst++;
                    more = true;
                }
            }
        }

        private boolean send(Direction d, int flow, byte kind, int a, int b, int length) throws IOException {
            if (offered >= packets) return false;
            out[0] = kind;
            out[1] = (byte) flow;
            ByteBuffer.wrap(out).putInt(2, a).putInt(6, b);
            if (!ends.send(d, flow, out, length)) return false;
            offered++;
            return true;
        }
    }
}
