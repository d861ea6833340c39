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
import org.pacelab.io.runtime.QuicClient;
import org.pacelab.peers.build.AioquicBuild;
import org.pacelab.peers.build.InstalledBuild;
import org.pacelab.peers.build.QuicGoBuild;

/**
 * pacelab's aioquic and quic-go servers send nothing when they are stopped (SIGTERM), as those libraries' own server
 * programs do not (aioquic's examples/http3_server.py and quic-go's interop server, the interop runner's images, have
 * no signal handler). Both libraries open a connection for every Initial of an unknown destination connection ID, also
 * one they cannot decrypt (a corrupted connection ID); such a connection never sends anything, but closing it at the
 * stop sent an Initial CONNECTION_CLOSE with a source connection ID of its own, which the interop check, reading the tap
 * until the server has stopped, counted as one more handshake (handshakecorruption with these servers,
 * docs/interop.md).
 */
@Tag("interop")
@Timeout(value = 3, unit = java.util.concurrent.TimeUnit.MINUTES)
class ProgramServerStopTest {
    @TempDir
    Path dir;

    @Test
    void aStoppedAioquicServerDoesNotCloseAConnectionOpenedByAnUndecryptableInitial() throws Exception {
        InstalledBuild aioquic = BuiltPeers.require(new AioquicBuild(), AioquicBuild.SERVER);
        // aioquic writes a connection's qlog only when it ends (here: at the stop), so a download after the Initial
        // shows that the server has handled it: it reads its one socket in order
        stopAfterUndecryptableInitial(aioquic.file(AioquicBuild.SERVER), "", (port, qlog) -> {
            QuicClient.Outcome o = Pacelab.download(new InetSocketAddress("127.0.0.1", port), "hq-interop", List.of("/file"),
                    new DigestSink(), Pacelab.Logs.NONE);
            assertTrue(o.allSucceeded(), "download failed: " + o);
        });
    }

    @Test
    void aStoppedQuicGoServerDoesNotCloseAConnectionOpenedByAnUndecryptableInitial() throws Exception {
        InstalledBuild quicGo = BuiltPeers.require(new QuicGoBuild(), QuicGoBuild.SERVER);
        // quic-go creates a connection's qlog when the connection starts: its file shows the Initial was handled (the
        // connection lives for quic-go's 5 s handshake idle timeout)
        stopAfterUndecryptableInitial(quicGo.file(QuicGoBuild.SERVER), "_server", (port, qlog) -> {
            while (!Files.exists(qlog)) {
                Thread.sleep(10);
            }
        });
    }

    /** What shows that the server has handled the Initial before it is stopped. */
    @FunctionalInterface
    private interface Handled {
        void await(int port, Path qlog) throws Exception;
    }

    /**
     * Starts the server, sends it an Initial it cannot decrypt from a socket of its own, waits until the server has
     * handled it, stops the server and checks that the connection it opened existed (its qlog) and that the server sent
     * that socket nothing.
     */
    private void stopAfterUndecryptableInitial(Path program, String qlogSuffix, Handled handled) throws Exception {
        Path www = Files.createDirectories(dir.resolve("www"));
        Files.write(www.resolve("file"), new byte[1000]);
        Path qlogDir = Files.createDirectories(dir.resolve("qlog"));
        byte[] dcid = new byte[8];
        new Random(7).nextBytes(dcid);
        Path qlog = qlogDir.resolve(HexFormat.of().formatHex(dcid) + qlogSuffix + ".qlog");
        try (PeerProcesses procs = new PeerProcesses(); DatagramChannel socket = DatagramChannel.open()) {
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            Path[] pki = ThirdPartyInterop.certificate(dir, procs);
            int port = Interop.freeUdpPort();
            Path log = dir.resolve("server.log");
            Process server = procs.start(log, Map.of(), program.toString(), "--listen", "127.0.0.1:" + port, "--root",
                    www.toString(), "--cert", pki[0].toString(), "--key", pki[1].toString(), "--alpn", "hq-interop",
                    "--qlog-dir", qlogDir.toString());
            assertTrue(PeerProcesses.awaitUdpBound(port, 30_000) && server.isAlive(), program.getFileName() + " did not bind port "
                    + port + ": " + PeerProcesses.tail(log));
            socket.send(ByteBuffer.wrap(undecryptableInitial(dcid)), new InetSocketAddress("127.0.0.1", port));
            handled.await(port, qlog);
            PeerProcesses.stop(server);
            assertFalse(server.isAlive(), "the server did not end on SIGTERM");
            assertTrue(Files.isRegularFile(qlog), "no connection was opened for the undecryptable Initial (no " + qlog.getFileName()
                    + "); qlogs: " + Files.list(qlogDir).toList());
            // the server has ended, so whatever it sent to this socket (loopback delivers at once) is queued here
            socket.configureBlocking(false);
            assertNull(socket.receive(ByteBuffer.allocate(2048)),
                    "the stopped server sent a datagram to the sender of the undecryptable Initial");
        }
    }

    /**
     * A QUIC v1 Initial in a 1200-byte datagram whose payload is random: its header parses (so the server opens a
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
