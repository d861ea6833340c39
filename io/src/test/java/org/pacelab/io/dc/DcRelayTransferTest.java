package org.pacelab.io.dc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.io.runtime.ParkWait;
import org.pacelab.io.runtime.QuicClient;
import org.pacelab.io.runtime.QuicServer;
import org.pacelab.io.tls.Certificates;
import org.pacelab.net.dc.DcFlowMode;
import org.pacelab.net.dc.DcPath;
import org.pacelab.net.dc.DcSpecParser;
import org.pacelab.net.dc.DcTimeline;
import org.pacelab.net.log.EventLogReader;
import org.pacelab.net.relay.RelayConfig;
import org.pacelab.net.relay.RelayRoute;
import org.pacelab.net.relay.UdpRelay;
import org.pacelab.quic.conn.CongestionConfig;
import org.pacelab.quic.conn.ConnectionConfig;
import org.pacelab.quic.content.BytePattern;
import org.pacelab.quic.content.DownloadRequest;
import org.pacelab.quic.content.SyntheticContent;
import org.pacelab.quic.tls.TlsConfig;

/**
 * Issue 8, acceptance 2 with pacelab at both ends (real time, a few seconds): a download split 9:1 in batches of 100
 * packets over two emulated paths arrives intact through the relay's reordering receiver, and the paths carried the
 * packets in the ratio asked.
 */
@Tag("realtime")
class DcRelayTransferTest {
    @Test
    void pacelabDownloadSplitNineToOneArrivesIntact(@TempDir Path dir) throws Exception {
        var id = Certificates.selfSigned(List.of("localhost"));
        TlsConfig serverTls = TlsConfig.server(List.of("h3"), TlsConfig.ALL_SUITES, id.chain(), id.key());
        TlsConfig clientTls = TlsConfig.client(List.of("h3"), TlsConfig.ALL_SUITES, "localhost", null, false);
        long size = 4L << 20;
        Path events = dir.resolve("events.bin");
        try (QuicServer server = QuicServer.start(new InetSocketAddress("127.0.0.1", 0),
                ConnectionConfig.defaults(serverTls, CongestionConfig.DEFAULT), SyntheticContent.only(), false, 8 << 20,
                new ParkWait(), r -> { })) {
            RelayConfig cfg = new RelayConfig(List.of(new RelayRoute(new InetSocketAddress("127.0.0.1", 0),
                    server.localAddress(), DcFlowMode.DUAL)), null,
                    DcSpecParser.parse("batch=100 ratio=9:1", "rate=36mbit delay=10ms", "rate=4mbit delay=20ms", null),
                    1, null, 0, events, 16 << 20, 150_000, 16, 1_000_000, false);
            UdpRelay relay = new UdpRelay(cfg);
            Thread loop = Thread.ofPlatform().start(() -> { try { relay.run(); } catch (Exception e) { throw new RuntimeException(e); } });
            Digest sink = new Digest();
            try {
                InetSocketAddress via = relay.listenAddress();
                QuicClient.Outcome o = QuicClient.download(via, ConnectionConfig.defaults(clientTls, CongestionConfig.DEFAULT),
                        List.of(new DownloadRequest("localhost:" + via.getPort(), "/bytes/" + size)), sink, 120_000_000_000L,
                        8 << 20, new ParkWait());
                assertTrue(o.allSucceeded(), "download failed: " + o);
            } finally {
                relay.stop();
                loop.join(10_000);
                relay.close();
            }
            assertEquals(size, sink.length);
            assertTrue(sink.intact, "the body differs from the /bytes pattern");
        }
        DcTimeline t = new DcTimeline(1_000_000_000L);
        EventLogReader.read(events, t::add);
        long a = Arrays.stream(t.pathBytes(DcPath.A)).sum(), b = Arrays.stream(t.pathBytes(DcPath.B)).sum();
        double share = (double) a / (a + b);
        assertTrue(share > 0.85 && share < 0.95, "path a carried " + share + " of the bytes; asked 0.9");
    }

    /** Checks the body against the /bytes pattern as it arrives (bodies come in order). */
    private static final class Digest implements org.pacelab.quic.content.DownloadSink {
        long length;
        boolean intact = true;

        @Override
        public org.pacelab.quic.content.DownloadOutput open(DownloadRequest request) {
            return new org.pacelab.quic.content.DownloadOutput() {
                @Override
                public void write(java.nio.ByteBuffer data) {
                    java.nio.ByteBuffer expected = java.nio.ByteBuffer.allocate(data.remaining());
                    BytePattern.fill(length, expected, data.remaining());
                    expected.flip();
                    if (!expected.equals(data)) intact = false;
                    length += data.remaining();
                    data.position(data.limit());
                }

                @Override
                public void commit() { }

                @Override
                public void abort() { intact = false; }
            };
        }
    }
}
