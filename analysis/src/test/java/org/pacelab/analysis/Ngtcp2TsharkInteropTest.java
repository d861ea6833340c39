package org.pacelab.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.net.DatagramSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.pacelab.analysis.summary.Summary;
import org.pacelab.analysis.summary.SummaryField;

/**
 * Acceptance 2 of the analysis issue: a real Debian ngtcp2 transfer over loopback, captured by tcpdump (pcap,
 * nanoseconds) and dumpcap (pcapng) at once; for every frame, pacelab's timestamp and recovered QUIC packet numbers
 * must equal what {@code tshark -o tls.keylog_file:KEYLOG -T fields -e frame.time_epoch -e quic.packet_number}
 * extracts. One run per cipher suite the server is limited to.
 */
@Tag("interop")
class Ngtcp2TsharkInteropTest {
    private static final String[] TOOLS = {"gtlsserver", "gtlsclient", "tshark", "dumpcap", "tcpdump", "openssl"};
    private static final Duration STEP_TIMEOUT = Duration.ofSeconds(60);
    private static final int BODY_BYTES = 2_000_000;
    private static final int MAX_ATTEMPTS = 3;
    private static final java.util.regex.Pattern TCPDUMP_DROPS = java.util.regex.Pattern.compile("(\\d+) packets dropped by kernel");
    private static final java.util.regex.Pattern DUMPCAP_DROPS =
            java.util.regex.Pattern.compile("Packets received/dropped on interface '[^']*': \\d+/(\\d+)");

    @TempDir
    Path dir;

    private final List<Process> processes = new ArrayList<>();

    @ParameterizedTest(name = "{0}")
    @CsvSource({"AES-128-GCM, TLS_AES_128_GCM_SHA256", "AES-256-GCM, TLS_AES_256_GCM_SHA384",
            "CHACHA20-POLY1305, TLS_CHACHA20_POLY1305_SHA256"})
    void packetNumbersAndTimesEqualTshark(String gnutlsCipher, String suite) throws Exception {
        requireTools();
        try {
            Path pcap = null;
            Path pcapng = null;
            Path keys = null;
            // A capture tool that reports packets dropped by the kernel (its buffer overran on a loaded machine) left
            // an incomplete file, which says nothing about pacelab: the transfer runs again, at most MAX_ATTEMPTS times.
            for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
                pcap = dir.resolve("tcpdump-" + attempt + ".pcap");
                pcapng = dir.resolve("dumpcap-" + attempt + ".pcapng");
                keys = transfer(gnutlsCipher, pcap, pcapng, attempt);
                String dropped = captureDrops(attempt);
                if (dropped == null) {
                    break;
                }
                if (attempt == MAX_ATTEMPTS) {
                    fail("the captures were incomplete in all " + MAX_ATTEMPTS + " attempts: " + dropped);
                }
            }
            for (Path capture : List.of(pcap, pcapng)) {
                List<String> tshark = tsharkFields(capture, keys);
                Path csv = dir.resolve(capture.getFileName() + ".csv");
                RunResult r = CaptureAnalyzer.analyze(AnalysisOptions.of(capture).withKeyLog(keys).withPacketsCsv(csv), "ngtcp2");
                List<String> ours = Files.readAllLines(csv).stream().skip(1).map(Ngtcp2TsharkInteropTest::asTshark).toList();
                assertEquals(tshark.size(), ours.size(), capture + ": frame count");
                for (int i = 0; i < ours.size(); i++) {
                    assertEquals(tshark.get(i), ours.get(i), capture + ": frame " + (i + 1));
                }
                Summary s = r.summary();
                assertEquals(suite, s.string(SummaryField.CIPHER_SUITE));
                assertEquals(s.integer(SummaryField.SERVER_1RTT_PACKETS), s.integer(SummaryField.PN_RECOVERED));
                assertTrue(s.integer(SummaryField.SERVER_BYTES) > BODY_BYTES, capture.getFileName()
                        + ": the whole 2 MB body crossed the capture, found " + s.integer(SummaryField.SERVER_BYTES) + " bytes");
                assertTrue(s.integer(SummaryField.PN_RECOVERED) > 100);
                assertEquals("initial_response", s.string(SummaryField.SERVER_DETECTION));
            }
        } finally {
            stopAll();
        }
    }

    private static void requireTools() {
        List<String> missing = new ArrayList<>();
        for (String t : TOOLS) {
            if (!onPath(t)) {
                missing.add(t);
            }
        }
        if (missing.isEmpty()) {
            return;
        }
        String msg = "interop peers missing: " + missing
                + " (apt-get install -y ngtcp2-client ngtcp2-server tshark tcpdump openssl; capturing on lo needs root)";
        if ("true".equals(System.getenv("CI"))) {
            fail(msg);
        }
        Assumptions.abort(msg);
    }

    private static boolean onPath(String tool) {
        for (String d : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(d, tool))) {
                return true;
            }
        }
        for (String d : new String[] {"/usr/sbin", "/sbin"}) {
            if (Files.isExecutable(Path.of(d, tool))) {
                return true;
            }
        }
        return false;
    }

    /**
     * What the capture tools of this attempt said they dropped (tcpdump's "N packets dropped by kernel", dumpcap's
     * "Packets received/dropped"), or null when both report none.
     */
    private String captureDrops(int attempt) throws IOException {
        List<String> said = new ArrayList<>();
        String tcpdump = Files.readString(dir.resolve("tcpdump-" + attempt + ".err"), StandardCharsets.ISO_8859_1);
        var t = TCPDUMP_DROPS.matcher(tcpdump);
        if (t.find() && Long.parseLong(t.group(1)) > 0) {
            said.add("tcpdump: " + t.group());
        }
        String dumpcap = Files.readString(dir.resolve("dumpcap-" + attempt + ".err"), StandardCharsets.ISO_8859_1);
        var d = DUMPCAP_DROPS.matcher(dumpcap);
        if (d.find() && Long.parseLong(d.group(1)) > 0) {
            said.add("dumpcap: " + d.group());
        }
        return said.isEmpty() ? null : String.join("; ", said);
    }

    /** Runs one download of 2 MB over loopback and returns the key log. */
    private Path transfer(String cipher, Path pcap, Path pcapng, int attempt) throws Exception {
        Path www = Files.createDirectories(dir.resolve("www"));
        byte[] body = new byte[BODY_BYTES];
        new Random(1).nextBytes(body);
        Files.write(www.resolve("file.bin"), body);
        run(List.of("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "key.pem", "-out", "cert.pem",
                "-days", "1", "-subj", "/CN=localhost"));
        int port = freeUdpPort();
        Path keys = dir.resolve("keys-" + attempt + ".log");
        Path tcpdumpErr = dir.resolve("tcpdump-" + attempt + ".err");
        Path dumpcapErr = dir.resolve("dumpcap-" + attempt + ".err");
        start(List.of(tool("tcpdump"), "-i", "lo", "-U", "--immediate-mode", "-B", "131072", "--time-stamp-precision", "nano", "-w", pcap.toString(),
                "udp port " + port), tcpdumpErr, null);
        start(List.of(tool("dumpcap"), "-q", "-i", "lo", "-B", "128", "-w", pcapng.toString(), "-f", "udp port " + port), dumpcapErr, null);
        awaitText(tcpdumpErr, "listening on");
        awaitText(dumpcapErr, "Capturing on");
        // dumpcap prints "Capturing on" before its capture is live: about 1 run in 10 it missed the handshake's first
        // datagrams (then tshark, without the Initials, cannot decrypt what pacelab still recovers). No later signal
        // exists without adding packets to the capture, so give it a moment.
        Thread.sleep(1000);
        Process server = start(List.of(tool("gtlsserver"), "-q", "-d", www.toString(), "--max-gso-dgrams=1",
                "--ciphers=NORMAL:-VERS-ALL:+VERS-TLS1.3:-CIPHER-ALL:+" + cipher, "127.0.0.1", Integer.toString(port),
                "key.pem", "cert.pem"), dir.resolve("server.log"), keys);
        awaitUdpBound(port, server);
        Process client = start(List.of(tool("gtlsclient"), "-q", "--exit-on-all-streams-close", "--download",
                Files.createDirectories(dir.resolve("dl-" + attempt)).toString(), "127.0.0.1", Integer.toString(port),
                "https://127.0.0.1:" + port + "/file.bin"), dir.resolve("client.log"), keys);
        if (!client.waitFor(STEP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            fail("gtlsclient did not finish within " + STEP_TIMEOUT.toSeconds() + " s");
        }
        assertEquals(0, client.exitValue(), "gtlsclient exit code; log: " + Files.readString(dir.resolve("client.log")));
        assertEquals(body.length, Files.size(dir.resolve("dl-" + attempt).resolve("file.bin")));
        awaitQuiet(List.of(pcap, pcapng)); // the captures lag behind the kernel's buffer on a loaded machine
        stopAll();
        return keys;
    }

    private Process start(List<String> command, Path output, Path keyLog) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(output.toFile());
        if (keyLog != null) {
            pb.environment().put("SSLKEYLOGFILE", keyLog.toString());
        }
        Process p = pb.start();
        processes.add(p);
        return p;
    }

    private void run(List<String> command) throws Exception {
        Process p = start(command, dir.resolve(command.getFirst() + ".out"), null);
        if (!p.waitFor(STEP_TIMEOUT.toSeconds(), TimeUnit.SECONDS) || p.exitValue() != 0) {
            fail(String.join(" ", command) + " failed: " + Files.readString(dir.resolve(command.getFirst() + ".out")));
        }
    }

    /** Ends every process this test started: SIGTERM (captures flush), then SIGKILL after 5 s. */
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

    private static String tool(String name) {
        for (String d : (System.getenv().getOrDefault("PATH", "") + ":/usr/sbin:/sbin").split(File.pathSeparator)) {
            if (!d.isEmpty() && Files.isExecutable(Path.of(d, name))) {
                return Path.of(d, name).toString();
            }
        }
        return name;
    }

    private static int freeUdpPort() throws IOException {
        try (DatagramSocket s = new DatagramSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static void awaitText(Path file, String text) throws Exception {
        long deadline = System.nanoTime() + STEP_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (Files.exists(file) && Files.readString(file, StandardCharsets.ISO_8859_1).contains(text)) {
                return;
            }
            Thread.sleep(50);
        }
        fail(file.getFileName() + " never said '" + text + "'");
    }

    /** Waits until the capture files stop growing (unchanged for 1.5 s: dumpcap delivers buffered blocks after 1 s), at most 20 s. */
    static void awaitQuiet(List<Path> files) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        long last = -1;
        int stable = 0;
        while (System.nanoTime() < deadline && stable < 15) {
            long total = 0;
            for (Path f : files) {
                total += Files.exists(f) ? Files.size(f) : 0;
            }
            stable = total == last ? stable + 1 : 0;
            last = total;
            Thread.sleep(100);
        }
    }

    /** Waits until the server's UDP port appears in /proc/net/udp. */
    private static void awaitUdpBound(int port, Process server) throws Exception {
        String hex = String.format(Locale.ROOT, ":%04X ", port);
        long deadline = System.nanoTime() + STEP_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!server.isAlive()) {
                fail("gtlsserver exited with " + server.exitValue());
            }
            if (Files.readString(Path.of("/proc/net/udp")).contains(hex)) {
                return;
            }
            Thread.sleep(20);
        }
        fail("gtlsserver did not bind UDP port " + port);
    }

    /** tshark's lines: epoch ns and the comma-separated packet numbers. */
    private List<String> tsharkFields(Path capture, Path keys) throws Exception {
        Path out = dir.resolve("tshark.txt");
        Process p = new ProcessBuilder(tool("tshark"), "-r", capture.toString(), "-o", "tls.keylog_file:" + keys, "-T", "fields",
                "-e", "frame.time_epoch", "-e", "quic.packet_number").redirectOutput(out.toFile())
                .redirectError(dir.resolve("tshark.err").toFile()).start();
        processes.add(p);
        if (!p.waitFor(STEP_TIMEOUT.toSeconds(), TimeUnit.SECONDS) || p.exitValue() != 0) {
            fail("tshark failed: " + Files.readString(dir.resolve("tshark.err")));
        }
        processes.remove(p);
        List<String> lines = new ArrayList<>();
        for (String line : Files.readAllLines(out)) {
            String[] f = line.split("\t", -1);
            lines.add(epochNs(f[0]) + " " + (f.length > 1 ? f[1] : ""));
        }
        return lines;
    }

    private static String epochNs(String seconds) {
        int dot = seconds.indexOf('.');
        String frac = (seconds.substring(dot + 1) + "000000000").substring(0, 9);
        return Long.toString(Long.parseLong(seconds.substring(0, dot)) * 1_000_000_000L + Long.parseLong(frac));
    }

    /** A packets.csv row as tshark would print it: time and the recovered numbers, comma-separated. */
    private static String asTshark(String csvRow) {
        String[] c = csvRow.split(",", -1);
        String numbers = String.join(",", java.util.Arrays.stream(c[5].split(";")).filter(n -> !n.isEmpty() && !n.equals("-"))
                .toList());
        return c[1] + " " + numbers;
    }
}
