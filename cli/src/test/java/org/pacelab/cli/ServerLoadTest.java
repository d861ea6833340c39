package org.pacelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.pacelab.quic.conn.CongestionConfig;
import org.pacelab.quic.conn.ConnectionConfig;
import org.pacelab.quic.conn.QuicConnection;
import org.pacelab.quic.conn.StatelessResetTokens;
import org.pacelab.quic.conn.UnvalidatedConnections;
import org.pacelab.quic.content.DownloadResult;
import org.pacelab.quic.content.DownloadSink;
import org.pacelab.quic.hq.HqClientHandler;
import org.pacelab.quic.tls.TlsConfig;

/**
 * Load and abuse on {@code pacelab server}, run as its own JVM (heap capped at 1 GiB) on loopback, with pacelab's own
 * client stack in this JVM as the load ({@link LoadClients}: many connections per socket and thread). Every test is
 * bounded (a fixed amount of work and a deadline) and asserts behaviour, not speed: every legitimate transfer
 * completes, and the server's state stays within its caps (RFC 9000 §8.1, §21.1.1.2). The figures it prints
 * (handshakes/s, the server's peak RSS) go to docs/benchmarks.md with the load average; nothing here asserts on them.
 *
 * <p>Runs in CI (6-14 minutes at load average 35-50 on the shared 2-core VM: every process there gets a small share of
 * the CPU, so the deadlines are generous and nothing depends on how fast a handshake is). A progress line every 15 s
 * and, on failure, the state of every client connection say where a run stands.
 */
@Tag("slow")
class ServerLoadTest {
    private static final long SECOND = 1_000_000_000L;
    private static final Pattern LISTENING = Pattern.compile("listening on [^ ]+:(\\d+)");
    private static final Pattern COUNTER = Pattern.compile("(\\w+)=(\\d+)");

    /** A {@code pacelab server} child process. */
    record Server(Process process, Path log, InetSocketAddress address) implements AutoCloseable {
        static Server start(Path dir, String... options) throws Exception {
            List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "--enable-native-access=ALL-UNNAMED", "-XX:+UseParallelGC", "-Xmx1g", "-cp",
                    System.getProperty("java.class.path"), Main.class.getName(), "server", "--listen", "127.0.0.1:0",
                    "--idle-timeout", "300s"));
            cmd.addAll(List.of(options));
            Path log = dir.resolve("server.log");
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            for (int i = 0; i < 1200; i++) {
                Matcher m = LISTENING.matcher(Files.readString(log, StandardCharsets.UTF_8));
                if (m.find()) {
                    return new Server(p, log, new InetSocketAddress("127.0.0.1", Integer.parseInt(m.group(1))));
                }
                if (!p.isAlive()) {
                    throw new AssertionError("server ended: " + Files.readString(log));
                }
                Thread.sleep(100);
            }
            p.destroyForcibly();
            throw new AssertionError("server not listening after 120 s: " + Files.readString(log));
        }

        /** Peak resident set size (VmHWM) of the server process, in MiB. */
        long peakRssMib() throws IOException {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status"))) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("\\D", "")) / 1024;
                }
            }
            return -1;
        }

        /** CPU time (user + system) the server process has used so far, in seconds. */
        double cpuSeconds() throws IOException {
            return ServerLoadTest.cpuSeconds(process.pid());
        }

        /** Stops the server (SIGTERM) and returns the counters it prints on the way out. */
        Map<String, Long> stop() throws Exception {
            process.destroy();
            assertTrue(process.waitFor(30, TimeUnit.SECONDS), "server did not stop");
            String out = Files.readString(log, StandardCharsets.UTF_8);
            int at = out.lastIndexOf("stopped; ");
            assertTrue(at >= 0, "no counters from the server: " + out);
            Map<String, Long> m = new HashMap<>();
            Matcher c = COUNTER.matcher(out.substring(at).lines().findFirst().orElse(""));
            while (c.find()) {
                m.put(c.group(1), Long.parseLong(c.group(2)));
            }
            assertTrue(!out.contains("\tat "), "the server printed a stack trace:\n" + out);
            return m;
        }

        @Override
        public void close() {
            process.destroyForcibly();
        }
    }

    static ConnectionConfig client(String alpn) {
        TlsConfig tls = TlsConfig.client(List.of(alpn), TlsConfig.ALL_SUITES, "localhost", null, false);
        return ConnectionConfig.defaults(tls, CongestionConfig.DEFAULT).withIdleTimeout(300 * SECOND);
    }

    private static void assertAllComplete(List<LoadClients> generators, int expected, long bytes) {
        int ok = 0;
        for (LoadClients g : generators) {
            assertNull(g.failure(), "a load generator failed: " + g.failure());
            for (DownloadResult r : g.results()) {
                assertTrue(r.succeeded() && r.bodyBytes() == bytes, "download " + r + "; connections: " + g.describeStates());
                ok++;
            }
        }
        StringBuilder states = new StringBuilder();
        for (LoadClients g : generators) {
            states.append(g.describeStates()).append(' ');
        }
        assertEquals(expected, ok, "completed downloads; connections: " + states);
    }

    /** CPU time (user + system, /proc/PID/stat) of a process, in seconds. */
    static double cpuSeconds(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / 100.0; // utime, stime in clock ticks (USER_HZ 100)
    }

    private static String load() throws IOException {
        return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
    }

    /**
     * 1,000 connections established at once (each waits for all handshakes before its request), then each downloads.
     * Until the server judged a Retry token's age by the Initial's arrival at its socket, the starved server refused 146 of
     * 1,000 clients at load 46-51 with INVALID_TOKEN: their Initials had waited in its socket buffer past the token's 2
     * minutes (see docs/benchmarks.md); CI ran 400 then.
     */
    @Test
    void thousandConcurrentConnections(@TempDir Path dir) throws Exception {
        int loops = 8;
        int perLoop = 125;
        int n = loops * perLoop;
        long bytes = 16 * 1024;
        try (Server server = Server.start(dir)) {
            AtomicInteger handshakes = new AtomicInteger();
            AtomicInteger settled = new AtomicInteger();
            List<LoadClients> generators = new ArrayList<>();
            long start = System.nanoTime();
            for (int i = 0; i < loops; i++) {
                generators.add(new LoadClients(server.address(), client(i % 2 == 0 ? "h3" : "hq-interop"), perLoop,
                        List.of("/bytes/" + bytes), 100 + i, handshakes, settled, () -> settled.get() >= n, Long.getLong("pacelab.load.timeout", 600) * SECOND));
            }
            generators.forEach(LoadClients::start);
            Thread progress = Thread.ofPlatform().daemon().start(() -> {
                try {
                    while (true) {
                        Thread.sleep(15_000);
                        StringBuilder st = new StringBuilder();
                        for (LoadClients g : generators) {
                            st.append(g.describeStates()).append(' ');
                        }
                        System.out.printf("progress %.0f s: handshakes %d settled %d load %s %s%n", (System.nanoTime() - start) / 1e9,
                                handshakes.get(), settled.get(), load(), st);
                    }
                } catch (InterruptedException | IOException e) {
                    return;
                }
            });
            for (LoadClients g : generators) {
                g.await();
            }
            progress.interrupt();
            long end = System.nanoTime();
            long lastHandshake = generators.stream().mapToLong(LoadClients::lastHandshakeNanos).max().orElse(0);
            long rss = server.peakRssMib();
            double serverCpu = server.cpuSeconds();
            double clientCpu = cpuSeconds(ProcessHandle.current().pid());
            for (LoadClients g : generators) {
                g.close();
            }
            StringBuilder states = new StringBuilder();
            for (LoadClients g : generators) {
                states.append(g.describeStates()).append(' ');
            }
            Map<String, Long> counters = server.stop();
            System.out.println("client states: " + states + "\nserver: " + counters);
            assertEquals(n, handshakes.get(), "handshakes completed");
            assertAllComplete(generators, n, bytes);
            assertEquals(n, counters.get("connections_peak"), "the server held every connection at once: " + counters);
            assertTrue(counters.get("unvalidated_connections_peak") <= UnvalidatedConnections.DEFAULT.perAddress(), counters.toString());
            System.out.printf("load: %d concurrent connections (h3 and hq-interop, %d client loops): %d handshakes in %.1f s "
                            + "(%.1f/s), all %d downloads of %d bytes in %.1f s; server peak RSS %d MiB, CPU %.1f s; test JVM "
                            + "(clients) CPU %.1f s; retries for the cap %d; load average %s%n", n, loops, n,
                    (lastHandshake - start) / 1e9, n / ((lastHandshake - start) / 1e9), n, bytes, (end - start) / 1e9, rss,
                    serverCpu, clientCpu, counters.get("retries_for_unvalidated_limit"), load());
        }
    }

    private static final org.pacelab.quic.content.DownloadListener NO_LISTENER = new org.pacelab.quic.content.DownloadListener() {
        @Override
        public void onDownloadFinished(DownloadResult result) { }

        @Override
        public void onAllFinished(List<DownloadResult> results) { }
    };

    private static final org.pacelab.quic.conn.LocalConnectionIds.Listener NO_ROUTES = new org.pacelab.quic.conn.LocalConnectionIds.Listener() {
        @Override
        public void onIssued(byte[] cid) { }

        @Override
        public void onRetired(byte[] cid) { }
    };

    /** Distinct, authentic client Initials (each decrypts with the keys of its own Destination Connection ID). */
    private static List<byte[]> initials(int count) throws Exception {
        ConnectionConfig config = client("hq-interop");
        SplittableRandom random = new SplittableRandom(99);
        List<byte[]> out = new ArrayList<>(count);
        ByteBuffer b = ByteBuffer.allocate(65536);
        for (int i = 0; i < count; i++) {
            QuicConnection c = QuicConnection.client(config, new HqClientHandler(List.of(), DownloadSink.DISCARD, NO_LISTENER,
                    System::nanoTime), random.split(), new StatelessResetTokens(new byte[32]), NO_ROUTES, 0);
            c.send(b.clear(), 0);
            b.flip();
            byte[] d = new byte[b.remaining()];
            b.get(d);
            out.add(d);
        }
        return out;
    }

    /** Sockets on many loopback addresses (127.0.0.2 ...) and ports. */
    private static List<DatagramChannel> sockets(int addresses, int portsEach) throws IOException {
        List<DatagramChannel> s = new ArrayList<>();
        for (int a = 0; a < addresses; a++) {
            for (int p = 0; p < portsEach; p++) {
                s.add(DatagramChannel.open(StandardProtocolFamily.INET).bind(new InetSocketAddress("127.0.0." + (2 + a), 0)));
            }
        }
        return s;
    }

    /**
     * An Initial flood (line-rate bursts of 1,000, at most 60,000) from 40 addresses × 8 source ports while 50
     * legitimate clients download 256 KiB each: with
     * {@code --retry} the flood gets stateless Retries only; without it, the server holds at most its cap of
     * unvalidated connections and answers the rest with Retry.
     */
    @ParameterizedTest(name = "retry={0}")
    @ValueSource(booleans = {false, true})
    void initialFloodFromManyPorts(boolean retry, @TempDir Path dir) throws Exception {
        List<byte[]> flood = initials(3000);
        int legit = 50;
        long bytes = 256 * 1024;
        List<DatagramChannel> senders = sockets(40, 8);
        try (Server server = retry ? Server.start(dir, "--retry") : Server.start(dir)) {
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong sent = new AtomicLong();
            Thread flooder = Thread.ofPlatform().name("flood").start(() -> {
                ByteBuffer b = ByteBuffer.allocate(2048);
                // bursts of 1,000 at line rate, 20 ms apart (a sustained flood above the server's capacity starves
                // everyone, which no server can prevent; what is tested is that state stays capped and that
                // legitimate clients get through between and during the bursts)
                for (int i = 0; i < 60_000 && !stop.get(); i++) {
                    try {
                        senders.get(i % senders.size()).send(b.clear().put(flood.get(i % flood.size())).flip(), server.address());
                        sent.incrementAndGet();
                        if (i % 1000 == 999) {
                            Thread.sleep(20);
                        }
                    } catch (IOException | InterruptedException e) {
                        return;
                    }
                }
            });
            AtomicInteger handshakes = new AtomicInteger();
            LoadClients clients = new LoadClients(server.address(), client("h3"), legit, List.of("/bytes/" + bytes), 7,
                    handshakes, new AtomicInteger(), () -> true, 600 * SECOND);
            long start = System.nanoTime();
            clients.start();
            clients.await();
            long end = System.nanoTime();
            stop.set(true);
            flooder.join();
            long rss = server.peakRssMib();
            double serverCpu = server.cpuSeconds();
            double clientCpu = cpuSeconds(ProcessHandle.current().pid());
            clients.close();
            assertAllComplete(List.of(clients), legit, bytes);
            Map<String, Long> c = server.stop();
            UnvalidatedConnections cap = UnvalidatedConnections.DEFAULT;
            assertTrue(c.get("unvalidated_connections_peak") <= cap.total(), c.toString());
            if (retry) {
                assertEquals(legit, c.get("connections_accepted"), "only clients that answered a Retry get state: " + c);
            } else {
                assertTrue(c.get("connections_peak") <= cap.total() + legit, c.toString());
                assertTrue(c.get("retries_for_unvalidated_limit") > 0, c.toString());
            }
            System.out.printf("load: Initial flood (retry=%s) of %d datagrams from %d sockets on 40 addresses while %d clients "
                            + "downloaded %d bytes each in %.1f s: server peak RSS %d MiB, connections peak %d, unvalidated peak %d, "
                            + "retries %d, CPU %.1f s; test JVM (clients and flood) CPU %.1f s; load average %s%n", retry, sent.get(), senders.size(),
                    legit, bytes, (end - start) / 1e9, rss, c.get("connections_peak"), c.get("unvalidated_connections_peak"),
                    c.get("retries_sent"), serverCpu, clientCpu, load());
        } finally {
            for (DatagramChannel s : senders) {
                s.close();
            }
        }
    }

    /** Garbage and truncated datagrams (at most 300,000, in line-rate bursts of 500) while 20 clients download 1 MiB each. */
    @Test
    void garbageAndTruncatedDatagramsDuringTransfers(@TempDir Path dir) throws Exception {
        List<byte[]> realInitials = initials(200);
        int legit = 20;
        long bytes = 1 << 20;
        List<DatagramChannel> senders = sockets(4, 4);
        try (Server server = Server.start(dir)) {
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong sent = new AtomicLong();
            Thread garbage = Thread.ofPlatform().name("garbage").start(() -> {
                SplittableRandom r = new SplittableRandom(5);
                ByteBuffer b = ByteBuffer.allocate(1500);
                byte[] noise = new byte[1500];
                for (long i = 0; i < 300_000 && !stop.get(); i++) {
                    if (i % 500 == 499) {
                        try {
                            Thread.sleep(20); // bursts of 500 at line rate, 20 ms apart
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                    b.clear();
                    switch ((int) (i % 4)) {
                        case 0 -> { // random bytes of any size
                            r.nextBytes(noise);
                            b.put(noise, 0, 1 + r.nextInt(1500));
                        }
                        case 1 -> { // a real Initial cut short
                            byte[] d = realInitials.get(r.nextInt(realInitials.size()));
                            b.put(d, 0, 1 + r.nextInt(d.length - 1));
                        }
                        case 2 -> { // a real Initial with bytes flipped (fails the AEAD)
                            byte[] d = realInitials.get(r.nextInt(realInitials.size())).clone();
                            d[20 + r.nextInt(200)] ^= (byte) (1 + r.nextInt(255)); // inside the first packet
                            b.put(d);
                        }
                        default -> { // short-header lookalikes of unknown connections (stateless reset territory)
                            r.nextBytes(noise);
                            noise[0] = (byte) (0x40 | (noise[0] & 0x3f));
                            b.put(noise, 0, 22 + r.nextInt(1200));
                        }
                    }
                    try {
                        senders.get((int) (i % senders.size())).send(b.flip(), server.address());
                        sent.incrementAndGet();
                    } catch (IOException e) {
                        return;
                    }
                }
            });
            LoadClients clients = new LoadClients(server.address(), client("h3"), legit, List.of("/bytes/" + bytes), 11,
                    new AtomicInteger(), new AtomicInteger(), () -> true, 600 * SECOND);
            long start = System.nanoTime();
            clients.start();
            clients.await();
            long end = System.nanoTime();
            stop.set(true);
            garbage.join();
            long rss = server.peakRssMib();
            double serverCpu = server.cpuSeconds();
            double clientCpu = cpuSeconds(ProcessHandle.current().pid());
            clients.close();
            assertAllComplete(List.of(clients), legit, bytes);
            Map<String, Long> c = server.stop();
            assertTrue(c.get("datagrams_dropped") > 0, c.toString());
            assertEquals(legit, c.get("connections_accepted"), "garbage created no connection: " + c);
            System.out.printf("load: %d garbage/truncated datagrams while %d clients downloaded 1 MiB each in %.1f s: all "
                            + "complete; server peak RSS %d MiB, CPU %.1f s, dropped %d, stateless resets %d; test JVM (clients and garbage) CPU "
                            + "%.1f s; load average %s%n", sent.get(), legit, (end - start) / 1e9, rss, serverCpu,
                    c.get("datagrams_dropped"), c.get("stateless_resets_sent"), clientCpu, load());
        } finally {
            for (DatagramChannel s : senders) {
                s.close();
            }
        }
    }
}
