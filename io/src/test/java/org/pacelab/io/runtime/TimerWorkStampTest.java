package org.pacelab.io.runtime;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.pacelab.io.send.SendConfig;
import org.pacelab.io.tls.Certificates;
import org.pacelab.quic.conn.CongestionConfig;
import org.pacelab.quic.conn.ConnectionConfig;
import org.pacelab.quic.content.DownloadRequest;
import org.pacelab.quic.content.DownloadSink;
import org.pacelab.quic.content.SyntheticContent;
import org.pacelab.quic.qlog.QlogJsonSeqWriter;
import org.pacelab.quic.tls.TlsConfig;

/**
 * The event loop stamps what a timer releases with the time it is built: a server's ClientHello goes to TLS on
 * InitialAckFirst's timer (key exchange, the certificate's signature), and the flight it produces must not carry the
 * time before that work, or the server's first RTT sample (RFC 9002 §5.3) holds it (12-19 ms on the relay,
 * docs/benchmarks.md "Where the relay's 0.1-0.3 Mbit/s go").
 */
class TimerWorkStampTest {
    @Test
    void theServersFirstFlightIsStampedAfterTheClientHellosTlsStepNotBeforeIt() throws Exception {
        Certificates.Identity id = Certificates.selfSignedRsa(List.of("localhost"));
        ByteArrayOutputStream qlog = new ByteArrayOutputStream();
        ConnectionConfig server = ConnectionConfig.defaults(TlsConfig.server(List.of("h3"), TlsConfig.ALL_SUITES,
                id.chain(), id.key()), CongestionConfig.DEFAULT)
                .withQlog(odcid -> new QlogJsonSeqWriter(qlog, "test", "server", odcid, 0, 0, true, true));
        try (QuicServer s = QuicServer.start(new InetSocketAddress("127.0.0.1", 0), server, SyntheticContent.only(),
                false, 1 << 22, SendConfig.DEFAULT, r -> { })) {
            ConnectionConfig client = ConnectionConfig.defaults(TlsConfig.client(List.of("h3"), TlsConfig.ALL_SUITES,
                    "localhost", null, false), CongestionConfig.DEFAULT);
            URI url = URI.create("https://127.0.0.1:" + s.localAddress().getPort() + "/bytes/1000");
            QuicClient.Outcome o = QuicClient.download(s.localAddress(), client, List.of(DownloadRequest.of(url)),
                    DownloadSink.DISCARD, 30_000_000_000L, 1 << 22, SendConfig.DEFAULT);
            assertTrue(o.allSucceeded(), "the download completes");
        }
        // the TLS step logs the client's transport parameters at the time the timer ran; the flight comes after
        double tls = -1;
        double flight = -1;
        for (String line : qlog.toString(StandardCharsets.UTF_8).split("\n")) {
            if (tls < 0 && line.contains("\"transport:parameters_set\"") && line.contains("\"owner\":\"remote\"")) {
                tls = time(line);
            } else if (tls >= 0 && line.contains("\"transport:packet_sent\"")) {
                flight = time(line);
                break;
            }
        }
        assertTrue(tls >= 0 && flight >= 0, "the qlog holds the TLS step and the flight:\n" + qlog);
        assertTrue(flight > tls, "the flight (" + flight + " ms) is stamped after the TLS step began (" + tls
                + " ms), not with the time the timer ran");
    }

    private static double time(String line) {
        int i = line.indexOf("\"time\":") + 7;
        int j = i;
        while (j < line.length() && "-0123456789.eE".indexOf(line.charAt(j)) >= 0) {
            j++;
        }
        return Double.parseDouble(line.substring(i, j));
    }
}
