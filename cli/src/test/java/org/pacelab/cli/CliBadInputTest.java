package org.pacelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every command with the mistakes a user makes: missing, unreadable and unwritable paths, a port in use, bad specs.
 * Each ends in one line on standard error — "pacelab COMMAND: " and a sentence naming the place — no Java stack
 * trace, and the documented exit code ({@link ExitCode}).
 */
class CliBadInputTest {
    @TempDir
    static Path dir;
    static Path file;
    static Path garbage;
    static Path missing;
    static Path missingDir;
    static Path underFile;
    static Path corrupt;

    /** A case: what the user typed and the exit code it must end with. */
    record Case(String name, int exitCode, List<String> args) {
        @Override
        public String toString() {
            return name;
        }
    }

    @BeforeAll
    static void files() throws IOException {
        file = Files.writeString(dir.resolve("file.txt"), "hello\n");
        garbage = Files.writeString(dir.resolve("garbage.pem"), "not a PEM file\n");
        missing = dir.resolve("missing.txt");
        missingDir = dir.resolve("no-such-dir");
        underFile = file.resolve("sub");
        corrupt = corruptCapture(dir.resolve("corrupt.pcap"));
    }

    /** A raw-IPv4 pcap of ten server datagrams, then a record whose length is beyond the snap length. */
    static Path corruptCapture(Path p) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(24 + 10 * (16 + 128) + 16).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(0xa1b2c3d4).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0).putInt(65535).putInt(101);
        for (int i = 0; i < 10; i++) {
            b.putInt(1_700_000_000).putInt(i * 100).putInt(128).putInt(128);
            ByteBuffer ip = ByteBuffer.allocate(128);
            ip.put((byte) 0x45).put((byte) 0).putShort((short) 128).putInt(0).put((byte) 64).put((byte) 17).putShort((short) 0)
                    .put(new byte[] {10, 0, 0, 1}).put(new byte[] {10, 0, 0, 2})
                    .putShort((short) 9000).putShort((short) 40000).putShort((short) 108).putShort((short) 0);
            b.put(ip.array());
        }
        b.putInt(1_700_000_001).putInt(0).putInt(0x7fff_0000).putInt(0x7fff_0000);
        return Files.write(p, b.array());
    }

    private static Case c(String name, int code, Object... args) {
        List<String> a = new ArrayList<>();
        for (Object o : args) {
            a.add(o.toString());
        }
        return new Case(name, code, a);
    }

    static Stream<Case> cases() {
        String any = "127.0.0.1:0";
        return Stream.of(
                // server
                c("server --cert missing", 2, "server", "--listen", any, "--cert", missing, "--key", file),
                c("server --cert a directory", 2, "server", "--listen", any, "--cert", dir, "--key", file),
                c("server --cert not PEM", 2, "server", "--listen", any, "--cert", garbage, "--key", garbage),
                c("server --key missing", 2, "server", "--listen", any, "--cert", file, "--key", missing),
                c("server --cert-out into a missing directory", 2, "server", "--listen", any, "--cert-out", missingDir.resolve("c.pem")),
                c("server --cert-out a directory", 2, "server", "--listen", any, "--cert-out", dir),
                c("server --qlog-dir under a file", 2, "server", "--listen", any, "--qlog-dir", underFile),
                c("server --qlog-dir a file", 2, "server", "--listen", any, "--qlog-dir", file),
                c("server --qlog-dir where nothing can be created", 2, "server", "--listen", any, "--qlog-dir", "/proc/pacelab-qlog"),
                c("server --keylog into a missing directory", 2, "server", "--listen", any, "--keylog", missingDir.resolve("k.log")),
                c("server --root missing", 2, "server", "--listen", any, "--root", missing),
                c("server --root a file", 2, "server", "--listen", any, "--root", file),
                c("server --listen not an address", 2, "server", "--listen", "here:4433"),
                c("server --listen an address of no interface here", 3, "server", "--listen", "192.0.2.1:0"),
                c("server --cc unknown", 2, "server", "--listen", any, "--cc", "vegas-ultra"),
                c("server --send unknown", 2, "server", "--listen", any, "--send", "teleport"),
                c("server --preferred-address not an address", 2, "server", "--listen", any, "--preferred-address", "there:4434"),
                c("server --preferred-address the --listen address", 2, "server", "--listen", "127.0.0.1:4433",
                        "--preferred-address", "127.0.0.1:4433"),
                c("server --preferred-address unreachable for clients", 2, "server", "--listen", any, "--preferred-address",
                        "0.0.0.0:4434"),
                c("server --advertise-preferred alone", 2, "server", "--listen", any, "--advertise-preferred", "192.0.2.1:4434"),
                c("server --preferred-address of no interface here", 3, "server", "--listen", any, "--preferred-address",
                        "192.0.2.1:4434"),
                // client
                c("client --ca missing", 2, "client", "--ca", missing, "https://127.0.0.1:9/"),
                c("client --ca a directory", 2, "client", "--ca", dir, "https://127.0.0.1:9/"),
                c("client --ca not PEM", 2, "client", "--ca", garbage, "https://127.0.0.1:9/"),
                c("client --json a directory", 2, "client", "--json", dir, "https://127.0.0.1:9/"),
                c("client --json into a missing directory", 2, "client", "--json", missingDir.resolve("c.json"), "https://127.0.0.1:9/"),
                c("client --output under a file", 2, "client", "--output", underFile, "https://127.0.0.1:9/"),
                c("client --qlog-dir under a file", 2, "client", "--qlog-dir", underFile, "https://127.0.0.1:9/"),
                c("client URL not https", 2, "client", "ftp://127.0.0.1/x"),
                c("client --timeout bad", 2, "client", "--timeout", "soon", "https://127.0.0.1:9/"),
                // analyze
                c("analyze capture missing", 2, "analyze", missing),
                c("analyze capture a directory", 2, "analyze", dir),
                c("analyze capture not a capture", 2, "analyze", file),
                c("analyze capture corrupt part-way", 2, "analyze", corrupt, "--bytes", "1KiB"),
                c("analyze --keylog missing", 2, "analyze", corrupt, "--keylog", missing),
                c("analyze --qlog missing", 2, "analyze", corrupt, "--qlog", missing),
                c("analyze --events a directory", 2, "analyze", corrupt, "--events", dir),
                c("analyze --json a directory", 2, "analyze", corrupt, "--json", dir),
                c("analyze --json into a missing directory", 2, "analyze", corrupt, "--json", missingDir.resolve("s.json")),
                c("analyze --packets-csv a directory", 2, "analyze", corrupt, "--packets-csv", dir),
                c("analyze --out under a file", 2, "analyze", corrupt, "--out", underFile),
                c("analyze --threshold bad", 2, "analyze", corrupt, "--threshold", "5parsecs"),
                // report
                c("report --campaign missing", 2, "report", "--campaign", missing),
                c("report --results a file", 2, "report", "--results", file),
                c("report --out under a file", 2, "report", "--results", dir, "--out", underFile),
                // run
                c("run scenario missing", 2, "run", missing),
                c("run scenario a directory", 2, "run", dir),
                c("run scenario not YAML", 2, "run", garbage),
                c("run --out under a file", 2, "run", garbage, "--out", underFile),
                // sim
                c("sim --out under a file", 2, "sim", "--out", underFile),
                c("sim --down bad spec", 2, "sim", "--out", dir.resolve("sim"), "--down", "rate=fast"),
                c("sim calibrate --out a directory", 2, "sim", "calibrate", "--out", dir),
                // emulate
                c("emulate --tap into a missing directory", 2, "emulate", "--listen", any, "--to", "127.0.0.1:9", "--tap", missingDir.resolve("t.pcapng")),
                c("emulate --log a directory", 2, "emulate", "--listen", any, "--to", "127.0.0.1:9", "--log", dir),
                c("emulate --down bad spec", 2, "emulate", "--listen", any, "--to", "127.0.0.1:9", "--down", "delay=soon"),
                c("emulate --preset unknown", 2, "emulate", "--listen", any, "--to", "127.0.0.1:9", "--preset", "moon"),
                c("emulate trace file missing", 2, "emulate", "--listen", any, "--to", "127.0.0.1:9", "--down", "trace=" + missing),
                // dc report
                c("dc report --log missing", 2, "dc", "report", "--log", missing),
                c("dc report --log not an event log", 2, "dc", "report", "--log", file, "--out", dir.resolve("dc")),
                c("dc report --out under a file", 2, "dc", "report", "--log", file, "--out", underFile),
                // peer
                c("peer quiche-server --cert missing", 2, "peer", "quiche-server", "--cert", missing, "--key", file),
                c("peer kwik-client --keylog into a missing directory", 2, "peer", "kwik-client", "--keylog",
                        missingDir.resolve("k.log"), "https://127.0.0.1:9/"),
                // peer: the interop test names' options of quiche and Kwik (checked before any connection)
                c("peer kwik-client --cipher-suites unknown", 2, "peer", "kwik-client", "--cipher-suites", "TLS_RC4",
                        "https://127.0.0.1:9/"),
                c("peer kwik-client --zero-rtt without a ticket file", 2, "peer", "kwik-client", "--zero-rtt",
                        "--alpn", "hq-interop", "https://127.0.0.1:9/"),
                c("peer kwik-client --zero-rtt over h3", 2, "peer", "kwik-client", "--zero-rtt", "--session-ticket",
                        dir.resolve("t.ticket"), "--alpn", "h3", "https://127.0.0.1:9/"),
                c("peer kwik-client --session-ticket with --connection-per-url", 2, "peer", "kwik-client",
                        "--session-ticket", dir.resolve("t.ticket"), "--connection-per-url", "https://127.0.0.1:9/"),
                c("peer kwik-client --session-ticket into a missing directory", 2, "peer", "kwik-client", "--timeout", "5s",
                        "--session-ticket", missingDir.resolve("t.ticket"), "https://127.0.0.1:9/"),
                c("peer kwik-client --session-ticket a directory", 2, "peer", "kwik-client", "--timeout", "5s",
                        "--session-ticket", dir, "https://127.0.0.1:9/"),
                c("peer kwik-client --session-ticket not a ticket", 2, "peer", "kwik-client", "--timeout", "5s",
                        "--session-ticket", garbage, "https://127.0.0.1:9/"),
                c("peer kwik-client --session-ticket not a ticket, --zero-rtt", 2, "peer", "kwik-client", "--timeout", "5s",
                        "--alpn", "hq-interop", "--zero-rtt", "--session-ticket", garbage, "https://127.0.0.1:9/"),
                // peer: quiche's key log and qlog directory (checked before any connection or socket)
                c("peer quiche-client --keylog into a missing directory", 2, "peer", "quiche-client", "--timeout", "5s",
                        "--keylog", missingDir.resolve("k.log"), "https://127.0.0.1:9/"),
                c("peer quiche-client --keylog a directory", 2, "peer", "quiche-client", "--timeout", "5s", "--keylog", dir,
                        "https://127.0.0.1:9/"),
                c("peer quiche-client --qlog-dir under a file", 2, "peer", "quiche-client", "--timeout", "5s", "--qlog-dir",
                        underFile, "https://127.0.0.1:9/"),
                c("peer quiche-server --keylog into a missing directory", 2, "peer", "quiche-server", "--listen", any,
                        "--keylog", missingDir.resolve("k.log")),
                c("peer quiche-server --keylog a directory", 2, "peer", "quiche-server", "--listen", any, "--keylog", dir),
                c("peer quiche-server --qlog-dir under a file", 2, "peer", "quiche-server", "--listen", any, "--qlog-dir",
                        underFile),
                c("peer quiche-client --resume with one URL", 2, "peer", "quiche-client", "--resume", "https://127.0.0.1:9/"),
                c("peer quiche-client --zero-rtt with --connection-per-url", 2, "peer", "quiche-client", "--zero-rtt",
                        "--connection-per-url", "https://127.0.0.1:9/a", "https://127.0.0.1:9/b"),
                // bench
                c("bench link --only unknown", 2, "bench", "link", "--only", "warp"),
                c("bench loopback --no-aot names no variant", 2, "bench", "loopback", "--peers", "", "--no-aot", "warp"),
                c("bench loopback --peers unknown", 2, "bench", "loopback", "--peers", "warp"),
                c("bench loopback --json a directory", 2, "bench", "loopback", "--peers", "tcp", "--json", dir),
                c("bench loopback --json into a missing directory", 2, "bench", "loopback", "--peers", "tcp", "--json",
                        missingDir.resolve("b.json")),
                c("bench loopback --work under a file", 2, "bench", "loopback", "--peers", "tcp", "--work", underFile),
                // jvm-cache
                c("jvm-cache not from the jar", 2, "jvm-cache"),
                // run: the Slurm executor's options, --jobs (checked before any controller is asked)
                c("run --executor unknown", 2, "run", garbage, "--executor", "moon"),
                c("run --runs-per-task 0", 2, "run", garbage, "--executor", "slurm", "--runs-per-task", "0"),
                c("run --partition without slurm", 2, "run", garbage, "--partition", "debug"),
                c("run --jobs 0", 2, "run", garbage, "--jobs", "0"),
                // slow start (every command that takes transport options)
                c("server --slow-start unknown", 2, "server", "--listen", any, "--slow-start", "warp"),
                c("server --hystart not a switch", 2, "server", "--listen", any, "--hystart", "maybe"),
                c("server --hystart-l negative", 2, "server", "--listen", any, "--slow-start", "hystart++", "--hystart-l", "-3"),
                c("server --hystart-l beside cubic's default", 2, "server", "--listen", any, "--hystart-l", "8"),
                c("client --slow-start unknown", 2, "client", "--slow-start", "warp", "https://127.0.0.1:9/"),
                c("sim --slow-start unknown", 2, "sim", "--out", dir.resolve("sim2"), "--slow-start", "warp"),
                // reproduce
                c("reproduce unknown study", 2, "reproduce", "moon-landing"),
                c("reproduce reference file missing", 2, "reproduce", missing),
                c("reproduce reference file not one", 2, "reproduce", file),
                c("reproduce --out under a file", 2, "reproduce", "quic-steps", "--out", underFile),
                c("reproduce --out a file", 2, "reproduce", "quic-steps", "--out", file),
                c("reproduce --mode unknown", 2, "reproduce", "quic-steps", "--mode", "warp"),
                c("reproduce --jobs 0", 2, "reproduce", "quic-steps", "--jobs", "0"),
                // interop (checked before any peer runs)
                c("interop --cases unknown", 2, "interop", "--cases", "teleport"),
                c("interop --servers unknown", 2, "interop", "--servers", "moon"),
                c("interop --out a file", 2, "interop", "--out", file, "--cases", "handshake"),
                c("interop --out under a file", 2, "interop", "--out", underFile, "--cases", "handshake"),
                c("interop --update-doc missing", 2, "interop", "--update-doc", missingDir.resolve("interop.md")),
                c("interop --seed not a number", 2, "interop", "--seed", "x"),
                c("interop --jobs 0", 2, "interop", "--jobs", "0"),
                c("interop --jobs not a number", 2, "interop", "--jobs", "many"),
                // peers install (checked before anything is built)
                c("peers install unknown peer", 2, "peers", "install", "moon"),
                c("peers install --source missing", 2, "peers", "install", "--source", missing, "picoquic"),
                // netns (checked before any namespace is made)
                c("netns up --tap into a missing directory", 2, "netns", "up", "--tap", missingDir.resolve("t.pcapng")),
                c("netns up --log a directory", 2, "netns", "up", "--log", dir),
                c("netns up --down bad spec", 2, "netns", "up", "--down", "rate=fast"),
                c("netns run --ns unknown", 2, "netns", "run", "--ns", "moon", "true"),
                // endpoint: the QUIC Interop Runner's exit code for a test case it does not support
                c("endpoint without a test case", 127, "endpoint"),
                // no such command
                c("unknown command", 2, "serve"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void oneSentenceAndTheDocumentedExitCode(Case c) {
        CliRun r = CliRun.of(c.args().toArray(String[]::new));
        assertOneSentence(c.toString(), c.args().getFirst(), r);
        assertEquals(c.exitCode(), r.code(), c + ": " + r.err());
    }

    @Test
    void portInUse() throws Exception {
        try (DatagramChannel taken = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
            String port = "127.0.0.1:" + ((InetSocketAddress) taken.getLocalAddress()).getPort();
            CliRun server = CliRun.of("server", "--listen", port);
            assertOneSentence("server", "server", server);
            assertEquals(ExitCode.UNAVAILABLE, server.code(), server.err());
            assertTrue(server.err().contains("in use"), server.err());
            CliRun emulate = CliRun.of("emulate", "--listen", port, "--to", "127.0.0.1:9");
            assertOneSentence("emulate", "emulate", emulate);
            assertEquals(ExitCode.UNAVAILABLE, emulate.code(), emulate.err());
            CliRun peer = CliRun.of("peer", "quiche-server", "--listen", port);
            assertOneSentence("peer", "peer quiche-server", peer);
            assertEquals(ExitCode.UNAVAILABLE, peer.code(), peer.err());
            CliRun kwik = CliRun.of("peer", "kwik-server", "--listen", port);
            assertOneSentence("peer", "peer kwik-server", kwik);
            assertEquals(ExitCode.UNAVAILABLE, kwik.code(), kwik.err());
            assertTrue(kwik.err().contains(port), "names the address: " + kwik.err());
            // the interop runner's endpoint reads its role from the environment: a child JVM
            Path certs = Files.createDirectories(dir.resolve("endpoint-certs"));
            org.pacelab.io.tls.Certificates.Identity id = org.pacelab.io.tls.Certificates.selfSigned(List.of("localhost"));
            Files.writeString(certs.resolve("cert.pem"), org.pacelab.io.tls.Certificates.toPem(id.leaf()), StandardCharsets.US_ASCII);
            Files.writeString(certs.resolve("priv.key"), org.pacelab.io.tls.Certificates.toPem(id.key()), StandardCharsets.US_ASCII);
            java.util.Map<String, String> env = java.util.Map.of("ROLE", "server", "TESTCASE", "handshake");
            CliRun endpoint = CliRun.inChild(dir, env, "endpoint", "--listen", port, "--www", dir.toString(), "--certs",
                    certs.toString());
            assertOneSentence("endpoint", "endpoint", endpoint);
            assertEquals(ExitCode.UNAVAILABLE, endpoint.code(), endpoint.err());
        }
    }

    @Test
    void unreadableFilesWhenNotRoot() throws Exception {
        Assumptions.assumeFalse("root".equals(System.getProperty("user.name")), "root reads every file");
        Path secret = Files.writeString(dir.resolve("secret.pem"), "x");
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("---------"));
        CliRun r = CliRun.of("server", "--listen", "127.0.0.1:0", "--cert", secret.toString(), "--key", secret.toString());
        assertOneSentence("server", "server", r);
        assertEquals(2, r.code());
        assertTrue(r.err().contains("permission denied"), r.err());
    }

    @Test
    void corruptCaptureSaysWhereAndPartialAnalysesWhatItCouldRead() throws Exception {
        Path out = dir.resolve("partial");
        CliRun strict = CliRun.of("analyze", corrupt.toString(), "--bytes", "1KiB", "--out", out.toString());
        assertEquals(2, strict.code(), strict.err());
        assertTrue(strict.err().contains("byte offset 1464"), strict.err());
        assertTrue(strict.err().contains("--partial"), strict.err());
        assertFalse(Files.exists(out.resolve("summary.json")), "nothing written without --partial");

        CliRun partial = CliRun.of("analyze", corrupt.toString(), "--bytes", "1KiB", "--out", out.toString(), "--partial");
        assertEquals(0, partial.code(), partial.err());
        assertTrue(partial.err().contains("warning") && partial.err().contains("byte offset 1464"), partial.err());
        assertTrue(Files.readString(out.resolve("summary.json"), StandardCharsets.UTF_8).matches("(?s).*\"capture_truncated\"\\s*:\\s*true.*"));
    }

    @Test
    void everyCommandIsCovered() {
        List<String> covered = cases().map(c -> c.args().getFirst()).distinct().toList();
        for (String command : List.of("server", "client", "analyze", "report", "run", "sim", "emulate", "dc", "peer", "bench",
                "jvm-cache", "reproduce", "interop", "peers", "netns", "endpoint")) {
            assertTrue(covered.contains(command), command + " has no bad-input case");
        }
    }

    static void assertOneSentence(String what, String command, CliRun r) {
        String err = r.err().strip();
        assertFalse(err.contains("\tat ") || err.contains("Exception in thread") || err.contains("Caused by:"),
                what + ": a stack trace:\n" + err);
        assertEquals(1, err.lines().count(), what + ": not one line:\n" + err);
        assertTrue(err.matches("pacelab( [a-z0-9-]+)*: \\S.*") && (err.startsWith("pacelab " + command) || err.startsWith("pacelab: ")),
                what + ": " + err);
    }
}
