package org.pacelab.net.relay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Map;
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
import org.pacelab.net.spec.LinkSpec;
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
        Path tshark = Preconditions.requireTool("tshark", "tshark");
        Path tap = dir.resolve("tap.pcapng"), events = dir.resolve("events.bin"), keys = dir.resolve("keys.log");
        LinkSpec quicSteps = LinkSpecParser.parse("quic-steps", null, null);
        UdpRelay relay = Ngtcp2RelayDownload.run(dir, 4 << 20, 1, serverPort -> new RelayConfig(
                new InetSocketAddress("127.0.0.1", 0), new InetSocketAddress("127.0.0.1", serverPort), quicSteps, 1, tap, 0,
                events, 32 << 20, 150_000, 16, 1_000_000, false), 120, Map.of("SSLKEYLOGFILE", keys.toString()));

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
