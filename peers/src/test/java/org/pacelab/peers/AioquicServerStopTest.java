package org.pacelab.peers;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.peers.build.AioquicBuild;
import org.pacelab.peers.build.InstalledBuild;
import org.pacelab.io.runtime.QuicClient;

/**
 * pacelab's aioquic server sends nothing when it is stopped (SIGTERM), as aioquic's own server program does not
 * (examples/http3_server.py, the interop runner's image). aioquic opens a connection for every Initial of an unknown
 * destination connection ID, also one it cannot decrypt (a corrupted connection ID); such a connection never sends
 * anything, but closing it at the stop sent an Initial CONNECTION_CLOSE with a source connection ID of its own, which
 * the interop check, reading the tap until the server has stopped, counted as one more handshake
 * (handshakecorruption with aioquic as server, docs/interop.md).
 */
@Tag("interop")
@Timeout(value = 3, unit = java.util.concurrent.TimeUnit.MINUTES)
class AioquicServerStopTest {
    @TempDir
    Path dir;

    @Test
    void aStoppedServerDoesNotCloseAConnectionOpenedByAnUndecryptableInitial() throws Exception {
        InstalledBuild aioquic = BuiltPeers.require(new AioquicBuild(), AioquicBuild.SERVER);
        Path www = Files.createDirectories(dir.resolve("www"));
        Files.write(www.resolve("file"), new byte[1000]);
        Path qlog = Files.createDirectories(dir.resolve("qlog"));
        byte[] dcid = new byte[8];
        new Random(7).nextBytes(dcid);
        try (PeerProcesses procs = new PeerProcesses(); DatagramChannel socket = DatagramChannel.open()) {
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            Path[] pki = ThirdPartyInterop.certificate(dir, procs);
            int port = Interop.freeUdpPort();
            Path log = dir.resolve("aioquic-server.log");
            Process server = procs.start(log, Map.of(), aioquic.file(AioquicBuild.SERVER).toString(), "--listen", "127.0.0.1:" + port,
                    "--root", www.toString(), "--cert", pki[0].toString(), "--key", pki[1].toString(), "--alpn", "hq-interop",
                    "--qlog-dir", qlog.toString());
            assertTrue(PeerProcesses.awaitUdpBound(port, 30_000) && server.isAlive(), "aioquic did not bind port " + port + ": "
                    + PeerProcesses.tail(log));
            byte[] initial = undecryptableInitial(dcid);
            socket.send(ByteBuffer.wrap(initial), new InetSocketAddress("127.0.0.1", port));
            // a download after it: the server reads its one socket in order, so the Initial above has been handled
            QuicClient.Outcome o = Pacelab.download(new InetSocketAddress("127.0.0.1", port), "hq-interop", List.of("/file"),
                    new DigestSink(), Pacelab.Logs.NONE);
            assertTrue(o.allSucceeded(), "download failed: " + o + "\n" + PeerProcesses.tail(log));
            PeerProcesses.stop(server);
            assertFalse(server.isAlive(), "the server did not end on SIGTERM");
            // the connection the Initial opened existed until the stop: its qlog, written then, is named by that ID
            assertTrue(Files.isRegularFile(qlog.resolve(HexFormat.of().formatHex(dcid) + ".qlog")),
                    "no connection was opened for the undecryptable Initial; qlogs: " + Files.list(qlog).toList());
            // the server has ended, so whatever it sent to this socket (loopback delivers at once) is queued here
            socket.configureBlocking(false);
            assertNull(socket.receive(ByteBuffer.allocate(2048)),
                    "the stopped server sent a datagram to the sender of the undecryptable Initial");
        }
    }

    /**
     * A QUIC v1 Initial in a 1200-byte datagram whose payload is random: its header parses (so aioquic opens a
     * connection for {@code dcid}), its payload does not decrypt.
     */
    private static byte[] undecryptableInitial(byte[] dcid) {
        byte[] d = new byte[1200];
        new Random(11).nextBytes(d);
        int i = 0;
        d[i++] = (byte) 0xc0; // long header, fixed bit, Initial, packet number length 1
        d[i++] = 0;
        d[i++] = 0;
        d[i++] = 0;
        d[i++] = 1; // version 1
        d[i++] = (byte) dcid.length;
        System.arraycopy(dcid, 0, d, i, dcid.length);
        i += dcid.length;
        d[i++] = 8; // source connection ID: the 8 random bytes that follow
        i += 8;
        d[i++] = 0; // no token
        int length = d.length - i - 2;
        d[i++] = (byte) (0x40 | (length >> 8)); // two-byte varint: the rest of the datagram
        d[i] = (byte) length;
        return d;
    }
}
