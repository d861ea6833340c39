package org.pacelab.io.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;
import org.pacelab.io.tls.Certificates;
import org.pacelab.quic.conn.CongestionConfig;
import org.pacelab.quic.conn.ConnectionConfig;
import org.pacelab.quic.content.DownloadRequest;
import org.pacelab.quic.content.SyntheticContent;
import org.pacelab.quic.tls.TlsConfig;

/**
 * Issue 2, acceptance 6 over real sockets: while a transfer runs, another socket sprays the server with
 * thousands of random datagrams and look-alike QUIC packets (long headers of version 1 with random
 * connection IDs, padded Initials, short headers). Nothing escapes, no state is created for garbage,
 * and the transfer completes intact.
 */
class NoiseDuringTransferTest {

    @Test
    void garbageDoesNotDisturbARealTransfer() throws Exception {
        var id = Certificates.selfSigned(List.of("localhost"));
        TlsConfig serverTls = TlsConfig.server(List.of("h3"), TlsConfig.ALL_SUITES, id.chain(), id.key());
        TlsConfig clientTls = TlsConfig.client(List.of("h3"), TlsConfig.ALL_SUITES, "localhost", null, false);
        long size = 30L << 20;
        try (QuicServer server = QuicServer.start(new InetSocketAddress("127.0.0.1", 0),
                ConnectionConfig.defaults(serverTls, CongestionConfig.DEFAULT), SyntheticContent.only(), false, 8 << 20,
                new ParkWait(), r -> {})) {
            InetSocketAddress addr = server.localAddress();
            AtomicBoolean stop = new AtomicBoolean();
            int[] sent = {0};
            Thread noise = Thread.ofPlatform().start(() -> {
                Random rnd = new Random(11);
                try (DatagramChannel ch = DatagramChannel.open()) {
                    while (!stop.get() && sent[0] < 20_000) {
                        ch.send(ByteBuffer.wrap(garbage(rnd)), addr);
                        sent[0]++;
                        if (sent[0] % 64 == 0) {
                            Thread.sleep(1);
                        }
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            DigestSink sink = new DigestSink();
            QuicClient.Outcome o;
            try {
                o = QuicClient.download(addr, ConnectionConfig.defaults(clientTls, CongestionConfig.DEFAULT),
                        List.of(new DownloadRequest("localhost:" + addr.getPort(), "/bytes/" + size)), sink,
                        120_000_000_000L, 8 << 20, new ParkWait());
            } finally {
                stop.set(true);
                noise.join();
            }
            assertTrue(o.allSucceeded(), o.toString());
            assertEquals(LoopbackTransferTest.patternSha256(size), sink.sha256.get("/bytes/" + size));
            assertTrue(sent[0] >= 2000, "noise datagrams sent: " + sent[0]);
            assertTrue(server.isRunning(), "the server loop must survive: " + server.failure());
            // only the real client's connection ever existed; garbage Initials created no state
            assertTrue(server.counters().get("connections") <= 1, String.valueOf(server.counters()));
            assertTrue(server.counters().get("datagrams_dropped") > 0, String.valueOf(server.counters()));
        }
    }

    private static byte[] garbage(Random rnd) {
        int kind = rnd.nextInt(4);
        byte[] b = new byte[kind == 1 ? 1200 + rnd.nextInt(300) : 1 + rnd.nextInt(1400)];
        rnd.nextBytes(b);
        if (kind == 1 || kind == 2) {
            // a version-1 long header (Initial or Handshake) with random connection IDs
            b[0] = (byte) (kind == 1 ? 0xc3 : 0xe3);
            if (b.length > 30) {
                b[1] = 0; b[2] = 0; b[3] = 0; b[4] = 1;
                b[5] = 8;
                b[14] = 8;
                b[23] = 0; // empty token
                b[24] = (byte) 0x44; b[25] = (byte) 0x00; // Length 0x400
            }
        } else if (kind == 3) {
            b[0] = (byte) (0x40 | (b[0] & 0x3f)); // a short header
        }
        return b;
    }
}
