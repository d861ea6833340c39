package org.pacelab.cli;

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
import org.pacelab.analysis.AnalysisOptions;
import org.pacelab.analysis.CaptureAnalyzer;
import org.pacelab.analysis.summary.Summary;
import org.pacelab.analysis.summary.SummaryField;
import org.pacelab.io.app.FileDownloadSink;
import org.pacelab.io.app.ServerContent;
import org.pacelab.io.log.KeyLogFile;
import org.pacelab.io.log.QlogDirectory;
import org.pacelab.io.runtime.ParkWait;
import org.pacelab.io.runtime.QuicClient;
import org.pacelab.io.runtime.QuicServer;
import org.pacelab.io.tls.Certificates;
import org.pacelab.net.link.Direction;
import org.pacelab.net.link.DropCause;
import org.pacelab.net.link.EventType;
import org.pacelab.net.log.EventLogReader;
import org.pacelab.net.log.EventLogSummary;
import org.pacelab.net.relay.RelayConfig;
import org.pacelab.net.relay.UdpRelay;
import org.pacelab.net.spec.LinkSpecParser;
import org.pacelab.quic.conn.CongestionConfig;
import org.pacelab.quic.conn.ConnectionConfig;
import org.pacelab.quic.content.DownloadRequest;
import org.pacelab.quic.tls.TlsConfig;

/**
 * Issue 3, acceptance 2 for pacelab's own stack: a pacelab file transfer through the relay with the
 * quic-steps preset arrives intact; the tap decrypts with the key log (analyzer and tshark); the drops the
 * relay counted equal its event log's.
 */
@Tag("interop")
class PacelabRelayTransferTest {

    @Test
    void pacelabTransferCrossesQuicSteps(@TempDir Path dir) throws Exception {
        CampaignPreconditions.requireProgram("tshark", "tshark");
        Path www = Files.createDirectories(dir.resolve("www"));
        byte[] content = new byte[6 << 20];
        new Random(3).nextBytes(content);
        Files.write(www.resolve("file.bin"), content);
        Path keys = dir.resolve("keys.log");
        Path tap = dir.resolve("tap.pcapng");
        Path events = dir.resolve("events.bin");
        Path qlogDir = dir.resolve("qlog");
        var id = Certificates.selfSigned(List.of("localhost"));
        KeyLogFile keyLog = new KeyLogFile(keys);
        ConnectionConfig server = ConnectionConfig.defaults(
                TlsConfig.server(List.of("h3"), TlsConfig.ALL_SUITES, id.chain(), id.key()), CongestionConfig.DEFAULT)
                .withKeyLog(keyLog).withQlog(new QlogDirectory(qlogDir, "server", true));
        ConnectionConfig client = ConnectionConfig.defaults(
                TlsConfig.client(List.of("h3"), TlsConfig.ALL_SUITES, "localhost", null, false), CongestionConfig.DEFAULT);
        UdpRelay relay;
        int serverPort;
        try (QuicServer s = QuicServer.start(new InetSocketAddress("127.0.0.1", 0), server, ServerContent.of(www), false,
                8 << 20, new ParkWait(), r -> {})) {
            serverPort = s.localAddress().getPort();
            RelayConfig cfg = new RelayConfig(new InetSocketAddress("127.0.0.1", 0), new InetSocketAddress("127.0.0.1", serverPort),
                    LinkSpecParser.parse("quic-steps", null, null), 1, tap, 0, events, 32 << 20, 150_000, 16, 1_000_000, false);
            relay = new UdpRelay(cfg);
            UdpRelay running = relay;
            Thread loop = Thread.ofPlatform().start(() -> {
                try {
                    running.run();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            try {
                InetSocketAddress via = relay.listenAddress();
                QuicClient.Outcome o = QuicClient.download(via, client,
                        List.of(new DownloadRequest("localhost:" + via.getPort(), "/file.bin")),
                        new FileDownloadSink(dir.resolve("dl")), 120_000_000_000L, 8 << 20, new ParkWait());
                assertTrue(o.allSucceeded(), o.toString());
            } finally {
                relay.stop();
                loop.join(10_000);
                relay.close();
                keyLog.close();
            }
        }
        assertTrue(java.util.Arrays.equals(content, Files.readAllBytes(dir.resolve("dl/file.bin"))), "download differs");

        EventLogSummary log = EventLogReader.summarize(events);
        assertEquals(relay.counters().drops(Direction.DOWN, DropCause.QUEUE_FULL), log.drops(Direction.DOWN, DropCause.QUEUE_FULL));
        assertEquals(relay.counters().count(Direction.DOWN, EventType.DELIVER), log.count(Direction.DOWN, EventType.DELIVER));

        Summary summary = CaptureAnalyzer.analyze(AnalysisOptions.of(tap).withKeyLog(keys).withQlog(qlogDir)
                .withEvents(events).withServerPort(serverPort), "relay").summary();
        assertTrue(summary.integer(SummaryField.PN_RECOVERED) > 4000, "server 1-RTT packets recovered: "
                + summary.get(SummaryField.PN_RECOVERED));
        assertEquals(log.drops(Direction.DOWN, DropCause.QUEUE_FULL), summary.integer(SummaryField.DROPS));

        var read = new ProcessBuilder("tshark", "-r", tap.toString(), "-o", "tls.keylog_file:" + keys, "-Y",
                "_ws.malformed || quic.decryption_failed", "-T", "fields", "-e", "frame.number")
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String bad = new String(read.getInputStream().readAllBytes()).strip();
        assertEquals(0, read.waitFor());
        assertEquals("", bad, "malformed or undecryptable frames in the tap");
    }
}
