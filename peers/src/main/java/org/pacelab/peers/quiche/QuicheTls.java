package org.pacelab.peers.quiche;

import java.io.IOException;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.HexFormat;
import java.util.List;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManagerFactory;

import io.netty.handler.codec.quic.BoringSSLKeylog;
import io.netty.handler.codec.quic.QuicSslContext;
import io.netty.handler.codec.quic.QuicSslContextBuilder;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;

import org.pacelab.io.log.KeyLogFile;
import org.pacelab.io.tls.Certificates;

/** BoringSSL contexts of the quiche peers, with the NSS key log written through pacelab's {@link KeyLogFile}. */
final class QuicheTls {
    /** ALPN protocols the quiche peers speak (pacelab's HTTP/3 and hq-interop handlers). */
    static final String[] ALPN = {"h3", "hq-interop"};

    private QuicheTls() {}

    static QuicSslContext server(Certificates.Identity id, Path keyLog, List<String> alpn) throws IOException {
        return server(id, keyLog, alpn, false);
    }

    /** @param earlyData accept 0-RTT from clients resuming a session */
    static QuicSslContext server(Certificates.Identity id, Path keyLog, List<String> alpn, boolean earlyData) throws IOException {
        QuicSslContextBuilder b = QuicSslContextBuilder
                .forServer(id.key(), null, id.chain().toArray(X509Certificate[]::new))
                .applicationProtocols(alpn.toArray(String[]::new))
                .earlyData(earlyData);
        return withKeyLog(b, keyLog).build();
    }

    /**
     * @param caFile PEM file of trusted CAs, or null with {@code insecure} to accept any certificate
     */
    static QuicSslContext client(String alpn, Path caFile, boolean insecure, Path keyLog) throws IOException {
        return client(alpn, caFile, insecure, keyLog, false);
    }

    /** @param earlyData send 0-RTT when a connection resumes a session of this context */
    static QuicSslContext client(String alpn, Path caFile, boolean insecure, Path keyLog, boolean earlyData) throws IOException {
        QuicSslContextBuilder b = QuicSslContextBuilder.forClient().applicationProtocols(alpn).earlyData(earlyData);
        if (insecure) {
            b.trustManager(InsecureTrustManagerFactory.INSTANCE);
        } else if (caFile != null) {
            b.trustManager(Certificates.readCertificates(caFile).toArray(X509Certificate[]::new));
        } else {
            try {
                TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                tmf.init((java.security.KeyStore) null);
                b.trustManager(tmf);
            } catch (java.security.GeneralSecurityException e) {
                throw new IOException("cannot load the JDK's trust store: " + e.getMessage(), e);
            }
        }
        return withKeyLog(b, keyLog).build();
    }

    private static QuicSslContextBuilder withKeyLog(QuicSslContextBuilder b, Path keyLog) throws IOException {
        if (keyLog == null) {
            return b;
        }
        KeyLogFile file = new KeyLogFile(keyLog);
        return b.keylog(new NssKeyLog(file));
    }

    /** BoringSSL hands over whole NSS lines ("LABEL client_random secret"); they go to the file as they are. */
    private record NssKeyLog(KeyLogFile file) implements BoringSSLKeylog {
        @Override
        public void logKey(SSLEngine engine, String line) {
            String[] f = line.trim().split(" ");
            if (f.length == 3) {
                file.log(f[0], HexFormat.of().parseHex(f[1]), HexFormat.of().parseHex(f[2]));
            }
        }
    }
}
