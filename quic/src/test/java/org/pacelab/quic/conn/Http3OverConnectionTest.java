package org.pacelab.quic.conn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.pacelab.quic.app.ApplicationHandler;
import org.pacelab.quic.content.DownloadListener;
import org.pacelab.quic.content.DownloadRequest;
import org.pacelab.quic.content.DownloadResult;
import org.pacelab.quic.content.DownloadSink;
import org.pacelab.quic.content.SyntheticContent;
import org.pacelab.quic.h3.H3ClientHandler;
import org.pacelab.quic.h3.H3ServerHandler;
import org.pacelab.quic.hq.HqClientHandler;
import org.pacelab.quic.hq.HqServerHandler;
import org.pacelab.quic.tls.TlsConfig;

/** HTTP/3 and hq-interop downloads over real connections on the virtual link. */
class Http3OverConnectionTest {

    @ParameterizedTest
    @CsvSource({"h3,interval", "h3,none", "hq-interop,interval", "h3,leaky-bucket"})
    void downloadCompletes(String alpn, String pacer) throws Exception {
        long size = 3_000_000;
        CountingDownloads downloads = new CountingDownloads();
        List<DownloadResult> results = downloads.results;
        DownloadSink sink = downloads.sink();
        DownloadListener listener = downloads.listener();
        ConnectionPair[] holder = new ConnectionPair[1];
        List<DownloadRequest> reqs = List.of(new DownloadRequest("localhost", "/bytes/" + size));
        ApplicationHandler clientApp = alpn.equals("h3") ? new H3ClientHandler(reqs, sink, listener, () -> holder[0].now)
                : new HqClientHandler(reqs, sink, listener, () -> holder[0].now);
        ApplicationHandler serverApp = alpn.equals("h3") ? new H3ServerHandler(SyntheticContent.only())
                : new HqServerHandler(SyntheticContent.only());
        CongestionConfig cc = CongestionConfig.fromOptions(Map.of("--cc", "cubic", "--pacer", pacer));
        ConnectionConfig s = ConnectionPair.baseConfig(List.of(alpn), TlsConfig.ALL_SUITES, false).withCongestion(cc);
        ConnectionConfig c = ConnectionPair.baseConfig(List.of(alpn), TlsConfig.ALL_SUITES, true).withCongestion(cc);
        ConnectionPair pair = new ConnectionPair(clientApp, serverApp, s, c, 5_000_000L, 4);
        holder[0] = pair;
        pair.start();
        boolean ok = pair.runUntil(() -> !results.isEmpty(), 60_000_000_000L);
        assertTrue(ok, "download stalled at " + downloads.received() + " bytes: server " + (pair.server == null ? "-"
                : pair.server.counters() + " cwnd " + pair.server.recovery().congestionController().congestionWindow()
                + " inflight " + pair.server.recovery().bytesInFlight()) + " client " + pair.client.counters());
        assertTrue(results.get(0).succeeded(), String.valueOf(results.get(0)));
        assertEquals(size, downloads.received());
    }
}
