package org.pacelab.io.runtime;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;

import org.pacelab.io.send.SendConfig;
import org.pacelab.quic.QuicException;
import org.pacelab.quic.conn.ConnectionConfig;
import org.pacelab.quic.content.DownloadRequest;
import org.pacelab.quic.content.DownloadSink;
import org.pacelab.quic.content.SyntheticContent;
import org.pacelab.quic.qlog.QlogJsonSeqWriter;
import org.pacelab.quic.qlog.QlogSink;
import org.pacelab.quic.tls.KeyLogSink;
import org.pacelab.quic.tls.TlsConfig;

/**
 * Warms the JIT before a measured run: a throw-away server with the real server's connection and send settings
 * (congestion controller, pacer, send strategy, socket; qlog written to nowhere, no key log, normal priority)
 * serves {@code /bytes/N} over loopback to a client in the same JVM. A cold JVM interprets the send and receive
 * paths for its first seconds and compiles them while the transfer runs; measured on this VM, the server's
 * wire − intended delays of the first ~7 s of a 100 MiB quic-steps transfer had a standard deviation of
 * ~500 µs against ~15–50 µs afterwards. A warmed server starts the measured transfer with compiled code and, after
 * an explicit collection, an empty young generation.
 *
 * <p>The same warm-up readies a server's first handshake ({@code pacelab endpoint}): a cold JVM loads and
 * initialises the receive path, Initial packet protection, the TLS engine, key exchange, the certificate signature and
 * the qlog writer while the first client waits; measured (docs/interop.md, issue 16's amplificationlimit), 0.5–1.3 s
 * to the server's first datagram at low load.
 */
public final class JitWarmup {
    /** How the warm-up ended. */
    public enum Ending {
        /** the whole body arrived */
        COMPLETED,
        /** the time limit came first (a low pacing cap, a slow host): the code ran for that long, which is the point */
        TIME_LIMIT,
        /** the transfer failed */
        FAILED
    }

    /** What the warm-up did. */
    public record Result(long bytes, long nanos, Ending ending, String problem) {
        public boolean completed() { return ending == Ending.COMPLETED; }

        public String describe() {
            return switch (ending) {
                case COMPLETED -> String.format("warm-up: %d bytes over loopback in %.2f s", bytes, nanos / 1e9);
                case TIME_LIMIT -> String.format("warm-up: stopped at its time limit after %.2f s (of %d bytes asked)",
                        nanos / 1e9, bytes);
                case FAILED -> "warm-up did not complete (" + problem + "); continuing";
            };
        }
    }

    private JitWarmup() {}

    /**
     * Runs the warm-up transfer.
     *
     * @param serverConfig the warm-up server's connection settings: a measured server's own, or a client's congestion
     *                     settings with a certificate (qlog and key log are replaced)
     * @param qlog         whether the measured endpoint writes qlog (the warm-up then writes the same records to nowhere)
     * @param send         the measured endpoint's send settings (run without {@code --realtime})
     * @param bytes        body size to transfer
     * @param limitNanos   stop after this long (a pacing cap can make the transfer slow)
     */
    public static Result run(ConnectionConfig serverConfig, boolean qlog, SendConfig send, int bufferBytes, long bytes,
                             long limitNanos) throws IOException {
        return run(serverConfig, serverConfig.tls().applicationProtocols().getFirst(), qlog, send, bufferBytes, bytes,
                limitNanos);
    }

    /**
     * Runs the warm-up transfer over one of the server's application protocols (a server that offers several runs
     * each protocol's code only when a client asks for it).
     *
     * @param alpn the protocol the warm-up client asks for: one of {@code serverConfig}'s
     */
    public static Result run(ConnectionConfig serverConfig, String alpn, boolean qlog, SendConfig send, int bufferBytes,
                             long bytes, long limitNanos) throws IOException {
        if (!serverConfig.tls().applicationProtocols().contains(alpn)) {
            throw new IllegalArgumentException("warm-up: the server does not offer " + alpn + " (it offers "
                    + String.join(", ", serverConfig.tls().applicationProtocols()) + ")");
        }
        long start = System.nanoTime();
        ConnectionConfig server = serverConfig.withKeyLog(KeyLogSink.NONE).withQlog(qlog
                ? JitWarmup::discardingQlog : odcid -> QlogSink.NONE);
        SendConfig warmSend = send.withoutRealtime();
        try (QuicServer s = QuicServer.start(new InetSocketAddress("127.0.0.1", 0), server, SyntheticContent.only(),
                false, bufferBytes, warmSend, r -> { })) {
            InetSocketAddress at = s.localAddress();
            TlsConfig tls = TlsConfig.client(List.of(alpn), serverConfig.tls().cipherSuites(), "localhost", null, false);
            ConnectionConfig client = ConnectionConfig.defaults(tls, serverConfig.congestion())
                    .withMaxUdpPayloadSize(serverConfig.maxUdpPayloadSize());
            URI url = URI.create("https://127.0.0.1:" + at.getPort() + "/bytes/" + bytes);
            QuicClient.Outcome o = QuicClient.download(at, client, List.of(DownloadRequest.of(url)), DownloadSink.DISCARD,
                    limitNanos, bufferBytes, warmSend);
            long nanos = System.nanoTime() - start;
            if (o.allSucceeded()) {
                return new Result(bytes, nanos, Ending.COMPLETED, null);
            }
            if (o.timedOut()) {
                return new Result(bytes, nanos, Ending.TIME_LIMIT, null);
            }
            return new Result(bytes, nanos, Ending.FAILED, "connection closed: " + o.closeReason());
        } catch (QuicException e) {
            return new Result(bytes, System.nanoTime() - start, Ending.FAILED, e.getMessage());
        } finally {
            // the warm-up's garbage would otherwise be collected during the measured transfer
            System.gc();
        }
    }

    private static QlogSink discardingQlog(byte[] odcid) {
        return new QlogJsonSeqWriter(OutputStream.nullOutputStream(), "warm-up", "server", odcid, 0, 0, true, true);
    }
}
