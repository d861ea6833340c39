package org.pacelab.io.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.io.tls.Certificates;
import org.pacelab.quic.TransportError;
import org.pacelab.quic.conn.CongestionConfig;
import org.pacelab.quic.conn.ConnectionConfig;
import org.pacelab.quic.content.DownloadRequest;
import org.pacelab.quic.content.SyntheticContent;
import org.pacelab.quic.tls.TlsConfig;

/** The client verifies certificates by default; --ca trusts a given CA; RSA and EC server keys from PEM. */
class CertificateVerificationTest {
    @TempDir
    Path tmp;

    private QuicClient.Outcome fetch(InetSocketAddress addr, TlsConfig clientTls) throws Exception {
        return QuicClient.download(addr, ConnectionConfig.defaults(clientTls, CongestionConfig.DEFAULT),
                List.of(new DownloadRequest("localhost:" + addr.getPort(), "/bytes/1000")), new DigestSink(),
                20_000_000_000L, 1 << 20, new ParkWait());
    }

    private QuicServer serve(Certificates.Identity id) throws Exception {
        TlsConfig tls = TlsConfig.server(List.of("h3"), TlsConfig.ALL_SUITES, id.chain(), id.key());
        return QuicServer.start(new InetSocketAddress("127.0.0.1", 0), ConnectionConfig.defaults(tls, CongestionConfig.DEFAULT),
                SyntheticContent.only(), false, 1 << 20, new ParkWait(), r -> {});
    }

    @Test
    void selfSignedCertificateIsRefusedByDefaultAndAcceptedWithItsCa() throws Exception {
        Certificates.Identity id = Certificates.selfSigned(List.of("localhost"));
        Path ca = tmp.resolve("ca.pem");
        Files.writeString(ca, Certificates.toPem(id.leaf()), StandardCharsets.US_ASCII);
        try (QuicServer server = serve(id)) {
            InetSocketAddress addr = server.localAddress();
            QuicClient.Outcome refused = fetch(addr, TlsConfig.client(List.of("h3"), TlsConfig.ALL_SUITES, "localhost", null, true));
            assertFalse(refused.allSucceeded());
            // RFC 9001 §4.8: a TLS alert becomes CRYPTO_ERROR 0x100 + alert (bad_certificate = 42)
            assertEquals(TransportError.cryptoError(42), refused.closeError(), refused.closeReason());
            QuicClient.Outcome trusted = fetch(addr, TlsConfig.client(List.of("h3"), TlsConfig.ALL_SUITES, "localhost",
                    Certificates.trustManager(ca), true));
            assertTrue(trusted.allSucceeded(), trusted.toString());
        }
    }

    @Test
    void rsaAndEcKeysLoadFromPemFiles() throws Exception {
        for (String alg : List.of("rsa", "ec")) {
            Path dir = Files.createDirectories(tmp.resolve(alg));
            Path key = dir.resolve("key.pem");
            Path cert = dir.resolve("cert.pem");
            Process p = new ProcessBuilder("openssl", "req", "-x509", "-newkey", alg.equals("rsa") ? "rsa:2048" : "ec",
                    "-pkeyopt", alg.equals("rsa") ? "rsa_keygen_bits:2048" : "ec_paramgen_curve:P-256", "-nodes",
                    "-keyout", key.toString(), "-out", cert.toString(), "-days", "2", "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=DNS:localhost").redirectErrorStream(true).start();
            assertEquals(0, p.waitFor(), new String(p.getInputStream().readAllBytes()));
            Certificates.Identity id = Certificates.load(cert, key);
            try (QuicServer server = serve(id)) {
                QuicClient.Outcome o = fetch(server.localAddress(), TlsConfig.client(List.of("h3"), TlsConfig.ALL_SUITES,
                        "localhost", Certificates.trustManager(cert), true));
                assertTrue(o.allSucceeded(), alg + ": " + o);
            }
        }
    }
}
