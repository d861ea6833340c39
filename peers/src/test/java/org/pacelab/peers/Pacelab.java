package org.pacelab.peers;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;

import org.pacelab.io.app.ServerContent;
import org.pacelab.io.log.KeyLogFile;
import org.pacelab.io.log.QlogDirectory;
import org.pacelab.io.runtime.ParkWait;
import org.pacelab.io.runtime.QuicClient;
import org.pacelab.io.runtime.QuicServer;
import org.pacelab.io.send.SendConfig;
import org.pacelab.io.tls.Certificates;
import org.pacelab.quic.QuicException;
import org.pacelab.quic.conn.CongestionConfig;
import org.pacelab.quic.conn.ConnectionConfig;
import org.pacelab.quic.content.DownloadRequest;
import org.pacelab.quic.content.DownloadSink;
import org.pacelab.quic.content.SyntheticContent;
import org.pacelab.quic.tls.TlsConfig;

/** pacelab's own server and client, in process, as the interop tests run them. */
public final class Pacelab {
    private Pacelab() {}

    /** Where a pacelab endpoint writes its key log and qlogs (either may be null). */
    public record Logs(Path keyLog, Path qlogDir) {
        public static final Logs NONE = new Logs(null, null);
    }

    static ConnectionConfig config(TlsConfig tls, String role, Logs logs) throws IOException {
        ConnectionConfig c = ConnectionConfig.defaults(tls, CongestionConfig.DEFAULT);
        if (logs.keyLog() != null) {
            c = c.withKeyLog(new KeyLogFile(logs.keyLog()));
        }
        if (logs.qlogDir() != null) {
            c = c.withQlog(new QlogDirectory(logs.qlogDir(), role, true));
        }
        return c;
    }

    /** A pacelab server on a free loopback port serving {@code /bytes/N} and, when {@code root} is set, files. */
    public static QuicServer server(Path root, Logs logs) throws IOException {
        return server(root, logs, SendConfig.DEFAULT);
    }

    /**
     * Like {@link #server(Path, Logs)} with the given send path. A capture on {@code lo} needs one sendmsg per datagram
     * ({@link SendConfig#PER_DATAGRAM}): a UDP GSO buffer crosses loopback unsegmented, so tcpdump records it as one
     * frame holding many short-header packets, which no dissector can split.
     */
    public static QuicServer server(Path root, Logs logs, SendConfig send) throws IOException {
        var id = Certificates.selfSigned(List.of("localhost", "127.0.0.1"));
        TlsConfig tls = TlsConfig.server(List.of("h3", "hq-interop"), TlsConfig.ALL_SUITES, id.chain(), id.key());
        return QuicServer.start(new InetSocketAddress("127.0.0.1", 0), config(tls, "server", logs),
                root == null ? SyntheticContent.only() : ServerContent.of(root), false, 8 << 20,
                send.withWait(new ParkWait().name()), r -> {});
    }

    /** pacelab's client downloading {@code targets} from {@code server} over one connection (no certificate check). */
    public static QuicClient.Outcome download(InetSocketAddress server, String alpn, List<String> targets, DownloadSink sink,
                                              Logs logs) throws IOException, QuicException {
        return download(server, alpn, targets, sink, logs, SendConfig.DEFAULT);
    }

    /**
     * Like {@link #download(InetSocketAddress, String, List, DownloadSink, Logs)} with the given send path: a capture on
     * {@code lo} needs {@link SendConfig#PER_DATAGRAM} on the client too. Its sends are mostly single packets, but a
     * slow loop can join two datagrams into one GSO buffer (seen: a 1,200-byte datagram ending in a 1-RTT packet and an
     * 81-byte Handshake datagram after it), and the short-header packet then runs to the end of the joined frame.
     */
    public static QuicClient.Outcome download(InetSocketAddress server, String alpn, List<String> targets, DownloadSink sink,
                                              Logs logs, SendConfig send) throws IOException, QuicException {
        TlsConfig tls = TlsConfig.client(List.of(alpn), TlsConfig.ALL_SUITES, "localhost", null, false);
        String authority = "localhost:" + server.getPort();
        List<DownloadRequest> requests = targets.stream().map(t -> new DownloadRequest(authority, t)).toList();
        return QuicClient.download(server, config(tls, "client", logs), requests, sink, Interop.TRANSFER_TIMEOUT_NANOS,
                8 << 20, send.withWait(new ParkWait().name()));
    }
}
