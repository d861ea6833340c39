package org.pacelab.net.relay;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.net.dc.DcFlowMode;
import org.pacelab.net.dc.DcPath;
import org.pacelab.net.dc.DcSpec;
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
        Path events = dir.resolve("events.bin");
        // bandwidths matched to the split: path a 36 Mbit/s, path b 4 Mbit/s
        DcSpec split = DcSpecParser.parse("batch=100 ratio=9:1", "rate=36mbit delay=10ms", "rate=4mbit delay=20ms", null);
        Ngtcp2RelayDownload.run(dir, 6 << 20, 8, serverPort -> new RelayConfig(List.of(new RelayRoute(
                new InetSocketAddress("127.0.0.1", 0), new InetSocketAddress("127.0.0.1", serverPort), DcFlowMode.DUAL)), null,
                split, 1, null, 0, events, 32 << 20, 150_000, 16, 1_000_000, false), 180, null);
        DcTimeline t = new DcTimeline(1_000_000_000L);
        EventLogReader.read(events, t::add);
        long a = java.util.Arrays.stream(t.pathBytes(DcPath.A)).sum(), b = java.util.Arrays.stream(t.pathBytes(DcPath.B)).sum();
        double share = (double) a / (a + b);
        assertTrue(share > 0.85 && share < 0.95, "path a carried " + share + " of the bytes; asked 0.9");
    }
}
