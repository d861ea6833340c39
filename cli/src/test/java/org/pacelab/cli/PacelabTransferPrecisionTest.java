package org.pacelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.net.DatagramSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.analysis.AnalysisOptions;
import org.pacelab.analysis.CaptureAnalyzer;
import org.pacelab.analysis.summary.Summary;
import org.pacelab.analysis.summary.SummaryField;

/**
 * Acceptance 3 of the analysis issue: a pacelab server and client (separate JVMs) transfer over loopback while
 * tcpdump records; with the server's qlog, pacing precision is computed from its intended send times and the
 * capture, and matching by packet number covers at least 99 % of the server's 1-RTT packets, across key updates.
 */
@Tag("root")
class PacelabTransferPrecisionTest {
    private static final long TIMEOUT_S = 90;

    @TempDir
    Path dir;

    private final List<Process> processes = new ArrayList<>();

    @Test
    void precisionMatchesAtLeast99PercentOfServerPackets() throws Exception {
        requireTcpdumpAsRoot();
        try {
            int port = freeUdpPort();
            Path pcap = dir.resolve("tap.pcap");
            Path keys = dir.resolve("keys.log");
            Path qlog = Files.createDirectories(dir.resolve("qlog"));
            Path clientLog = dir.resolve("client.json");
            Path tcpdumpOut = dir.resolve("tcpdump.out");
            start(List.of(tcpdump(), "-i", "lo", "-U", "--immediate-mode", "-B", "131072", "--time-stamp-precision", "nano", "-w", pcap.toString(),
                    "udp port " + port), tcpdumpOut);
            awaitText(tcpdumpOut, "listening on");
            Process server = start(pacelab("server", "--listen", "127.0.0.1:" + port, "--qlog-dir", qlog.toString(),
                    "--keylog", keys.toString(), "--key-update", "500"), dir.resolve("server.out"));
            awaitUdpBound(port, server);
            Process client = start(pacelab("client", "-k", "--json", clientLog.toString(),
                    "https://127.0.0.1:" + port + "/bytes/3000000"), dir.resolve("client.out"));
            if (!client.waitFor(TIMEOUT_S, TimeUnit.SECONDS)) {
                fail("pacelab client did not finish within " + TIMEOUT_S + " s");
            }
            assertEquals(0, client.exitValue(), Files.readString(dir.resolve("client.out")));
            awaitQuiet(pcap); // tcpdump lags behind the kernel's buffer on a loaded machine
            stopAll();

            Summary s = CaptureAnalyzer.analyze(AnalysisOptions.of(pcap).withKeyLog(keys).withQlog(qlog)
                    .withClientLog(clientLog), "pacelab").summary();
            long oneRtt = s.integer(SummaryField.SERVER_1RTT_PACKETS);
            assertTrue(oneRtt > 1000, "server 1-RTT packets: " + oneRtt);
            assertEquals(oneRtt, s.integer(SummaryField.PN_RECOVERED), "numbers recovered across key updates");
            assertTrue(s.number(SummaryField.PRECISION_MATCHED_SHARE) >= 0.99,
                    "matched share " + s.number(SummaryField.PRECISION_MATCHED_SHARE));
            assertTrue(s.has(SummaryField.PRECISION_US), String.valueOf(s.reason(SummaryField.PRECISION_US)));
            assertEquals(3_000_000, s.integer(SummaryField.TRANSFER_BYTES));
            assertTrue(s.has(SummaryField.GOODPUT_APP_MBPS) && s.has(SummaryField.GOODPUT_WALL_MBPS)
                    && s.has(SummaryField.GOODPUT_WIRE_MBPS));
            assertEquals("qlog", s.string(SummaryField.RETRANSMISSIONS_SOURCE));
            assertTrue(s.has(SummaryField.CWND_MAX_BYTES));
        } finally {
            stopAll();
        }
    }

    private static void requireTcpdumpAsRoot() {
        String why = null;
        if (!"root".equals(System.getProperty("user.name"))) {
            why = "capturing on loopback needs root";
        } else if (tcpdump() == null) {
            why = "tcpdump is not installed (apt-get install -y tcpdump)";
        }
        if (why == null) {
            return;
        }
        if ("true".equals(System.getenv("CI"))) {
            fail(why);
        }
        Assumptions.abort(why);
    }

    private static String tcpdump() {
        for (String d : (System.getenv().getOrDefault("PATH", "") + ":/usr/sbin:/usr/bin:/sbin").split(File.pathSeparator)) {
            if (!d.isEmpty() && Files.isExecutable(Path.of(d, "tcpdump"))) {
                return Path.of(d, "tcpdump").toString();
            }
        }
        return null;
    }

    /** A pacelab command in a JVM of its own, on this test's class path. */
    private static List<String> pacelab(String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse("java"));
        cmd.add("--enable-native-access=ALL-UNNAMED");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(Main.class.getName());
        cmd.addAll(List.of(args));
        return cmd;
    }

    private Process start(List<String> command, Path output) throws IOException {
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(output.toFile()).start();
        processes.add(p);
        return p;
    }

    /** SIGTERM to everything this test started (tcpdump flushes), SIGKILL after 5 s. */
    private void stopAll() throws InterruptedException {
        for (Process p : processes) {
            p.destroy();
        }
        for (Process p : processes) {
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                p.waitFor(5, TimeUnit.SECONDS);
            }
        }
        processes.clear();
    }

    private static int freeUdpPort() throws IOException {
        try (DatagramSocket s = new DatagramSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static void awaitText(Path file, String text) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_S);
        while (System.nanoTime() < deadline) {
            if (Files.exists(file) && Files.readString(file, StandardCharsets.ISO_8859_1).contains(text)) {
                return;
            }
            Thread.sleep(50);
        }
        fail(file.getFileName() + " never said '" + text + "'");
    }

    /** Waits until the capture stops growing (unchanged for 1.5 s), at most 20 s. */
    private static void awaitQuiet(Path file) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        long last = -1;
        int stable = 0;
        while (System.nanoTime() < deadline && stable < 15) {
            long size = Files.exists(file) ? Files.size(file) : 0;
            stable = size == last ? stable + 1 : 0;
            last = size;
            Thread.sleep(100);
        }
    }

    private static void awaitUdpBound(int port, Process server) throws Exception {
        String hex = String.format(Locale.ROOT, ":%04X ", port);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_S);
        while (System.nanoTime() < deadline) {
            if (!server.isAlive()) {
                fail("pacelab server exited with " + server.exitValue());
            }
            if (Files.readString(Path.of("/proc/net/udp")).contains(hex)) {
                return;
            }
            Thread.sleep(50);
        }
        fail("pacelab server did not bind UDP port " + port);
    }
}
