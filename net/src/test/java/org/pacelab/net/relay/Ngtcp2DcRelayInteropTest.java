package org.pacelab.net.relay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.net.Preconditions;
import org.pacelab.net.Processes;
import org.pacelab.net.dc.DcFlowMode;
import org.pacelab.net.dc.DcPath;
import org.pacelab.net.dc.DcSpecParser;
import org.pacelab.net.dc.DcTimeline;
import org.pacelab.net.log.EventLogReader;

/**
 * Issue 8, acceptance 2 with the Debian ngtcp2 peers: an HTTP/3 download split 9:1 over two emulated paths (relay
 * mode) arrives intact, and the paths carried the packets in the ratio asked.
 */
@Tag("interop")
class Ngtcp2DcRelayInteropTest {
    @Test
    void ngtcp2DownloadSplitNineToOneArrivesIntact(@TempDir Path dir) throws Exception {
        Path server = Preconditions.requireTool("gtlsserver", "ngtcp2-server");
        Path client = Preconditions.requireTool("gtlsclient", "ngtcp2-client");
        Path openssl = Preconditions.requireTool("openssl", "openssl");
        Path www = Files.createDirectories(dir.resolve("www"));
        Path dl = Files.createDirectories(dir.resolve("dl"));
        byte[] content = new byte[6 << 20];
        new Random(8).nextBytes(content);
        Files.write(www.resolve("file.bin"), content);
        Path key = dir.resolve("key.pem"), cert = dir.resolve("cert.pem");
        assertEquals(0, Processes.run(60, openssl.toString(), "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout",
                key.toString(), "-out", cert.toString(), "-days", "1", "-subj", "/CN=localhost").exitCode());
        int serverPort = Ngtcp2RelayInteropTest.freeUdpPort();
        try (Processes procs = new Processes()) {
            procs.start(dir.resolve("server.log"), server.toString(), "-q", "-d", www.toString(), "127.0.0.1",
                    String.valueOf(serverPort), key.toString(), cert.toString());
            Path events = dir.resolve("events.bin");
            // bandwidths matched to the split: path a 36 Mbit/s, path b 4 Mbit/s
            RelayConfig cfg = new RelayConfig(List.of(new RelayRoute(new InetSocketAddress("127.0.0.1", 0),
                    new InetSocketAddress("127.0.0.1", serverPort), DcFlowMode.DUAL)), null,
                    DcSpecParser.parse("batch=100 ratio=9:1", "rate=36mbit delay=10ms", "rate=4mbit delay=20ms", null),
                    1, null, 0, events, 32 << 20, 150_000, 16, 1_000_000, false);
            UdpRelay relay = new UdpRelay(cfg);
            Thread loop = Thread.ofPlatform().start(() -> { try { relay.run(); } catch (Exception e) { throw new RuntimeException(e); } });
            try {
                Thread.sleep(300); // let the server bind
                int port = relay.listenAddress().getPort();
                Processes.Result r = Processes.run(180, client.toString(), "-q", "--exit-on-all-streams-close", "--download",
                        dl.toString(), "--max-data=1G", "--max-stream-data-bidi-local=1G", "127.0.0.1", String.valueOf(port),
                        "https://127.0.0.1:" + port + "/file.bin");
                assertEquals(0, r.exitCode(), r.output());
            } finally {
                relay.stop();
                loop.join(10_000);
                relay.close();
            }
            assertTrue(java.util.Arrays.equals(content, Files.readAllBytes(dl.resolve("file.bin"))), "download differs");
            DcTimeline t = new DcTimeline(1_000_000_000L);
            EventLogReader.read(events, t::add);
            long a = java.util.Arrays.stream(t.pathBytes(DcPath.A)).sum(), b = java.util.Arrays.stream(t.pathBytes(DcPath.B)).sum();
            double share = (double) a / (a + b);
            assertTrue(share > 0.85 && share < 0.95, "path a carried " + share + " of the bytes; asked 0.9");
        }
    }
}
