package org.pacelab.io.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.io.send.SendConfig;
import org.pacelab.io.tls.Certificates;
import org.pacelab.net.relay.RelayConfig;
import org.pacelab.net.relay.UdpRelay;
import org.pacelab.net.spec.LinkSpecParser;
import org.pacelab.quic.conn.CongestionConfig;
import org.pacelab.quic.conn.ConnectionConfig;
import org.pacelab.quic.content.DownloadRequest;
import org.pacelab.quic.content.SyntheticContent;
import org.pacelab.quic.recovery.EcnValidator;
import org.pacelab.quic.tls.TlsConfig;

/**
 * ECN end to end (RFC 9000 §13.4): both endpoints on the native socket read the ECN field, report counts and mark
 * ECT(0); through the relay the marks survive, so each side validates the path and keeps marking every packet. Judged
 * from the relay's tap: more ECT(0) datagrams each way than the ten of the testing period (far more from the server), and
 * no CE.
 */
class EcnOverLoopbackTest {
    @Test
    void bothSidesValidateThePathAndMarkEveryPacket(@TempDir Path dir) throws Exception {
        var id = Certificates.selfSigned(List.of("localhost"));
        SendConfig nativeSocket = SendConfig.fromOptions(Map.of(SendConfig.SOCKET, "native"));
        ConnectionConfig server = ConnectionConfig.defaults(TlsConfig.server(List.of("hq-interop"), TlsConfig.ALL_SUITES,
                id.chain(), id.key()), CongestionConfig.DEFAULT).withEcn(true);
        ConnectionConfig client = ConnectionConfig.defaults(TlsConfig.client(List.of("hq-interop"), TlsConfig.ALL_SUITES,
                "localhost", null, false), CongestionConfig.DEFAULT).withEcn(true);
        Path tap = dir.resolve("tap.pcapng");
        try (QuicServer s = QuicServer.start(new InetSocketAddress("127.0.0.1", 0), server, SyntheticContent.only(), false,
                4 << 20, nativeSocket, r -> {})) {
            UdpRelay relay = new UdpRelay(new RelayConfig(new InetSocketAddress("127.0.0.1", 0), s.localAddress(),
                    LinkSpecParser.parse("none", null, null), 1, tap, 64, null, 4 << 20, 100_000, 16, 100_000, false));
            Thread t = Thread.ofPlatform().start(() -> {
                try {
                    relay.run();
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            InetSocketAddress via = relay.listenAddress();
            QuicClient.Outcome o = QuicClient.download(via, client, List.of(new DownloadRequest("localhost:" + via.getPort(),
                    "/bytes/2000000")), new DigestSink(), 120_000_000_000L, 4 << 20, nativeSocket);
            relay.stop();
            t.join(5000);
            relay.close();
            assertTrue(o.allSucceeded(), "download failed: " + o);
        }
        long[] down = new long[4];
        long[] up = new long[4];
        readTap(tap, down, up);
        assertEquals(0, down[3] + up[3], "no CE marks");
        assertTrue(down[2] > 500, "server datagrams marked ECT(0): " + down[2] + " of " + (down[0] + down[2]));
        // The client sends mostly ACKs, and how many depends on how the host schedules the receiver (a loaded host
        // delivers longer bursts, each acknowledged once: 20-25 datagrams were seen for 2 MB). A path that failed
        // validation stops marking after the testing period, so more marked datagrams than that prove it passed.
        assertTrue(up[2] > EcnValidator.TESTING_PACKETS,
                "client datagrams marked ECT(0): " + up[2] + " of " + (up[0] + up[2]));
    }

    /** Counts the ECN field of the tap's IPv4 datagrams per direction (server port: the source of the first reply). */
    private static void readTap(Path tap, long[] down, long[] up) throws Exception {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(tap)).order(ByteOrder.LITTLE_ENDIAN);
        int clientPort = -1;
        while (b.remaining() >= 12) {
            int start = b.position();
            int type = b.getInt();
            int length = b.getInt();
            if (type == 6) { // Enhanced Packet Block
                b.position(start + 20);
                int captured = b.getInt();
                b.getInt();
                byte[] pkt = new byte[captured];
                b.get(pkt);
                int tos = pkt[1] & 3;
                int srcPort = ((pkt[20] & 0xff) << 8) | (pkt[21] & 0xff);
                if (clientPort < 0) {
                    clientPort = srcPort; // the client's Initial comes first
                }
                (srcPort == clientPort ? up : down)[tos]++;
            }
            b.position(start + length);
        }
    }
}
