package org.pacelab.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.pacelab.io.log.QlogDirectory;
import org.pacelab.io.runtime.JitWarmup;
import org.pacelab.io.runtime.QuicServer;
import org.pacelab.io.send.SendConfig;
import org.pacelab.io.tls.Certificates;
import org.pacelab.quic.conn.CongestionConfig;
import org.pacelab.quic.conn.ConnectionConfig;
import org.pacelab.quic.tls.TlsConfig;

/** The QUIC Interop Runner endpoint interface, client against server, for each supported test case. */
class EndpointCommandTest {
    @TempDir
    Path tmp;

    private Map<String, String> env(String role, String testcase) throws Exception {
        Map<String, String> env = new HashMap<>();
        env.put("ROLE", role);
        env.put("TESTCASE", testcase);
        env.put("SSLKEYLOGFILE", tmp.resolve("keys.log").toString());
        env.put("QLOGDIR", tmp.resolve("qlog").toString());
        env.put("WWW", tmp.resolve("www").toString());
        env.put("DOWNLOADS", tmp.resolve("downloads").toString());
        env.put("CERTS", tmp.resolve("certs").toString());
        return env;
    }

    @ParameterizedTest
    @ValueSource(strings = {"handshake", "transfer", "multiconnect", "retry", "chacha20", "keyupdate", "http3", "resumption", "ecn"})
    void clientDownloadsFromServer(String testcase) throws Exception {
        Files.createDirectories(tmp.resolve("www"));
        Files.createDirectories(tmp.resolve("certs"));
        Certificates.Identity id = Certificates.selfSigned(List.of("localhost"));
        Files.writeString(tmp.resolve("certs/cert.pem"), Certificates.toPem(id.leaf()), StandardCharsets.US_ASCII);
        Files.writeString(tmp.resolve("certs/priv.key"), Certificates.toPem(id.key()), StandardCharsets.US_ASCII);
        Random rnd = new Random(testcase.hashCode());
        int files = testcase.equals("multiconnect") ? 5 : testcase.equals("transfer") || testcase.equals("resumption") ? 3 : 1;
        int size = testcase.equals("keyupdate") ? 3_000_000 : testcase.equals("transfer") ? 1_000_000 : 20_000;
        List<String> names = new ArrayList<>();
        for (int i = 0; i < files; i++) {
            byte[] b = new byte[size];
            rnd.nextBytes(b);
            String name = "file" + i + ".bin";
            Files.write(tmp.resolve("www").resolve(name), b);
            names.add(name);
        }
        EndpointCommand server = new EndpointCommand();
        server.env = env("server", testcase);
        server.listen = new InetSocketAddress("127.0.0.1", 0);
        try (QuicServer s = server.startServer(testcase)) {
            int port = s.localAddress().getPort();
            EndpointCommand client = new EndpointCommand();
            client.env = env("client", testcase);
            StringBuilder urls = new StringBuilder();
            for (String n : names) {
                urls.append("https://127.0.0.1:").append(port).append('/').append(n).append(' ');
            }
            client.env.put("REQUESTS", urls.toString().trim());
            assertEquals(0, client.runClient(testcase));
        }
        for (String n : names) {
            assertArrayEquals(Files.readAllBytes(tmp.resolve("www").resolve(n)), Files.readAllBytes(tmp.resolve("downloads").resolve(n)), n);
        }
    }

    /**
     * The server warms up over each of its protocols before it binds (issue 16: a cold server's first answer came
     * 0.5–1.3 s after the ClientHello), and nothing of the warm-up reaches the case's qlog directory or key log: the
     * runner's checks read those.
     */
    @Test
    void serverWarmsUpEachProtocolWithoutWritingTheCasesLogs() throws Exception {
        Certificates.Identity id = Certificates.selfSigned(List.of("localhost"));
        ConnectionConfig server = ConnectionConfig.defaults(TlsConfig.server(List.of("hq-interop", "h3"), TlsConfig.ALL_SUITES,
                id.chain(), id.key()), CongestionConfig.DEFAULT).withQlog(new QlogDirectory(tmp.resolve("qlog"), "server", true));
        List<JitWarmup.Result> results = EndpointCommand.warmUp(server, SendConfig.DEFAULT);
        assertEquals(2, results.size(), results.toString());
        for (JitWarmup.Result r : results) {
            assertTrue(r.completed(), r.describe());
            assertEquals(EndpointCommand.WARMUP_BYTES, r.bytes());
        }
        try (var files = Files.list(tmp.resolve("qlog"))) {
            assertEquals(0, files.count(), "the warm-up wrote no qlog file");
        }

        Files.createDirectories(tmp.resolve("www"));
        Files.createDirectories(tmp.resolve("certs"));
        Files.writeString(tmp.resolve("certs/cert.pem"), Certificates.toPem(id.leaf()), StandardCharsets.US_ASCII);
        Files.writeString(tmp.resolve("certs/priv.key"), Certificates.toPem(id.key()), StandardCharsets.US_ASCII);
        Files.write(tmp.resolve("www/a.bin"), new byte[1000]);
        EndpointCommand endpoint = new EndpointCommand();
        endpoint.env = env("server", "handshake");
        endpoint.env.put("SSLKEYLOGFILE", tmp.resolve("server-keys.log").toString());
        endpoint.env.put("QLOGDIR", tmp.resolve("server-qlog").toString());
        endpoint.listen = new InetSocketAddress("127.0.0.1", 0);
        try (QuicServer s = endpoint.startServer("handshake")) {
            EndpointCommand client = new EndpointCommand();
            client.env = env("client", "handshake");
            client.env.put("REQUESTS", "https://127.0.0.1:" + s.localAddress().getPort() + "/a.bin");
            assertEquals(0, client.runClient("handshake"));
        }
        try (var files = Files.list(tmp.resolve("server-qlog"))) {
            assertEquals(1, files.count(), "one qlog file: the client's connection, none of the warm-up's");
        }
        assertEquals(1, Files.readAllLines(tmp.resolve("server-keys.log")).stream()
                .filter(l -> l.startsWith("CLIENT_HANDSHAKE_TRAFFIC_SECRET ")).count(), "one connection's secrets in the key log");
    }

    @Test
    void unsupportedTestCaseExits127() throws Exception {
        EndpointCommand c = new EndpointCommand();
        c.env = env("client", "no-such-case");
        assertEquals(127, c.call());
    }

    /** connectionmigration's server needs the second address it offers (RFC 9000 §9.6): without one, the case is not taken. */
    @Test
    void connectionMigrationServerWithoutAPreferredAddressExits127() throws Exception {
        EndpointCommand c = new EndpointCommand();
        c.env = env("server", "connectionmigration");
        assertEquals(127, c.call());
    }

    /**
     * SSLKEYLOGFILE and QLOGDIR are checked by the rule of pacelab's --keylog and --qlog-dir (PathChecks): one sentence
     * naming the variable, exit code 2, before any connection; before, a directory as the key log was a bare path
     * ("pacelab endpoint: /x: is a directory") and a key log's missing directory was created. The environment: a child JVM.
     */
    @Test
    void aKeyLogOrQlogDirectoryThatCannotBeWrittenNamesTheVariable() throws Exception {
        Path missing = tmp.resolve("no-such-dir");
        Path file = Files.writeString(tmp.resolve("file.txt"), "x");
        CliRun client = CliRun.inChild(tmp, Map.of("ROLE", "client", "TESTCASE", "handshake", "REQUESTS", "https://127.0.0.1:9/x",
                "DOWNLOADS", tmp.resolve("downloads").toString(), "SSLKEYLOGFILE", missing.resolve("keys.log").toString()), "endpoint");
        CliBadInputTest.assertOneSentence("endpoint", "endpoint", client);
        assertEquals(2, client.code(), client.err());
        assertEquals("pacelab endpoint: SSLKEYLOGFILE cannot be written: the directory " + missing + " does not exist (create it first)",
                client.err().strip());
        assertFalse(Files.exists(missing), "nothing created");

        Files.createDirectories(tmp.resolve("certs"));
        Certificates.Identity id = Certificates.selfSigned(List.of("localhost"));
        Files.writeString(tmp.resolve("certs/cert.pem"), Certificates.toPem(id.leaf()), StandardCharsets.US_ASCII);
        Files.writeString(tmp.resolve("certs/priv.key"), Certificates.toPem(id.key()), StandardCharsets.US_ASCII);
        CliRun server = CliRun.inChild(tmp, Map.of("ROLE", "server", "TESTCASE", "handshake", "QLOGDIR", file.resolve("q").toString()),
                "endpoint", "--listen", "127.0.0.1:0", "--www", tmp.toString(), "--certs", tmp.resolve("certs").toString());
        CliBadInputTest.assertOneSentence("endpoint", "endpoint", server);
        assertEquals(2, server.code(), server.err());
        assertEquals("pacelab endpoint: QLOGDIR cannot be used: cannot create " + file.resolve("q") + ": " + file
                + " is a file, not a directory", server.err().strip());
    }
}
