package org.pacelab.net.relay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.net.Preconditions;
import org.pacelab.net.Processes;
import org.pacelab.net.link.Direction;
import org.pacelab.net.link.DropCause;
import org.pacelab.net.link.EventType;
import org.pacelab.net.log.EventLogReader;
import org.pacelab.net.log.EventLogSummary;
import org.pacelab.net.spec.LinkSpecParser;

/**
 * Acceptance 2 with the Debian ngtcp2 peers: an HTTP/3 download crosses the relay with the quic-steps link,
 * arrives intact, the tap opens in tshark and decrypts with the key log, and the drops the relay counted are the
 * drops in its event log.
 */
@Tag("interop")
class Ngtcp2RelayInteropTest {
    @Test
    void ngtcp2DownloadCrossesQuicSteps(@TempDir Path dir) throws Exception {
        Path server = Preconditions.requireTool("gtlsserver", "ngtcp2-server");
        Path client = Preconditions.requireTool("gtlsclient", "ngtcp2-client");
        Path tshark = Preconditions.requireTool("tshark", "tshark");
        Path openssl = Preconditions.requireTool("openssl", "openssl");
        Path www = Files.createDirectories(dir.resolve("www"));
        Path dl = Files.createDirectories(dir.resolve("dl"));
        byte[] content = new byte[4 << 20];
        new Random(1).nextBytes(content);
        Files.write(www.resolve("file.bin"), content);
        Path key = dir.resolve("key.pem"), cert = dir.resolve("cert.pem");
        assertEquals(0, Processes.run(60, openssl.toString(), "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout",
                key.toString(), "-out", cert.toString(), "-days", "1", "-subj", "/CN=localhost").exitCode());

        int serverPort = freeUdpPort();
        try (Processes procs = new Processes()) {
            procs.start(dir.resolve("server.log"), server.toString(), "-q", "-d", www.toString(), "127.0.0.1",
                    String.valueOf(serverPort), key.toString(), cert.toString());
            Path tap = dir.resolve("tap.pcapng"), events = dir.resolve("events.bin"), keys = dir.resolve("keys.log");
            RelayConfig cfg = new RelayConfig(new InetSocketAddress("127.0.0.1", 0), new InetSocketAddress("127.0.0.1", serverPort),
                    LinkSpecParser.parse("quic-steps", null, null), 1, tap, 0, events, 32 << 20, 150_000, 16, 1_000_000, false);
            UdpRelay relay = new UdpRelay(cfg);
            Thread loop = Thread.ofPlatform().start(() -> { try { relay.run(); } catch (Exception e) { throw new RuntimeException(e); } });
            try {
                Thread.sleep(300); // let the server bind
                int port = relay.listenAddress().getPort();
                Processes.Result r = Processes.run(120, Map.of("SSLKEYLOGFILE", keys.toString()), client.toString(), "-q",
                        "--exit-on-all-streams-close", "--download", dl.toString(), "--max-data=1G",
                        "--max-stream-data-bidi-local=1G", "127.0.0.1", String.valueOf(port),
                        "https://127.0.0.1:" + port + "/file.bin");
                assertEquals(0, r.exitCode(), r.output());
            } finally {
                relay.stop();
                loop.join(10_000);
                relay.close();
            }
            assertTrue(java.util.Arrays.equals(content, Files.readAllBytes(dl.resolve("file.bin"))), "download differs");

            EventLogSummary s = EventLogReader.summarize(events);
            assertEquals(relay.counters().drops(Direction.DOWN, DropCause.QUEUE_FULL), s.drops(Direction.DOWN, DropCause.QUEUE_FULL));
            assertEquals(relay.counters().count(Direction.DOWN, EventType.DELIVER), s.count(Direction.DOWN, EventType.DELIVER));
            assertEquals(s.count(Direction.DOWN, EventType.ARRIVAL),
                    s.count(Direction.DOWN, EventType.DELIVER) + s.drops(Direction.DOWN, DropCause.QUEUE_FULL)
                            + relay.packetsInside(Direction.DOWN));

            Processes.Result read = Processes.run(120, tshark.toString(), "-r", tap.toString(), "-o",
                    "tls.keylog_file:" + keys, "-Y", "http3.frame_type == 1", "-T", "fields", "-e", "frame.number");
            assertEquals(0, read.exitCode(), read.output());
            assertTrue(read.output().lines().anyMatch(l -> l.strip().matches("[0-9]+")),
                    "no decrypted HTTP/3 HEADERS frame in the tap: " + read.output());
            Processes.Result count = Processes.run(120, tshark.toString(), "-r", tap.toString(), "-T", "fields", "-e", "frame.len");
            long frames = count.output().lines().filter(l -> l.strip().matches("[0-9]+")).count();
            assertEquals(s.count(Direction.DOWN, EventType.TAP) + s.count(Direction.UP, EventType.DELIVER), frames);
        }
    }

    static int freeUdpPort() throws Exception {
        try (java.nio.channels.DatagramChannel c = java.nio.channels.DatagramChannel.open()
                .bind(new InetSocketAddress("127.0.0.1", 0))) {
            return ((InetSocketAddress) c.getLocalAddress()).getPort();
        }
    }
}
