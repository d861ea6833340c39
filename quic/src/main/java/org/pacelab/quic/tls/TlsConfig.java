package org.pacelab.quic.tls;

import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;

import javax.net.ssl.X509TrustManager;

import org.pacelab.quic.crypto.CipherSuite;

/**
 * TLS settings of one endpoint.
 *
 * @param applicationProtocols ALPN identifiers offered (client) or accepted (server), in preference order
 * @param cipherSuites         TLS 1.3 cipher suites offered or accepted, in preference order
 * @param certificateChain     server only: the certificate chain, leaf first
 * @param privateKey           server only: the leaf's private key (RSA or EC)
 * @param serverName           client only: SNI and the name verified against the certificate
 * @param trustManager         client only: verifies the server's chain; null means the JDK's default trust store
 * @param verifyPeer           client only: false skips certificate and host name verification (--insecure)
 */
public record TlsConfig(List<String> applicationProtocols, List<CipherSuite> cipherSuites,
                        List<X509Certificate> certificateChain, PrivateKey privateKey,
                        String serverName, X509TrustManager trustManager, boolean verifyPeer) {

    public static final List<CipherSuite> ALL_SUITES = List.of(CipherSuite.AES_128_GCM_SHA256,
            CipherSuite.AES_256_GCM_SHA384, CipherSuite.CHACHA20_POLY1305_SHA256);

    public static TlsConfig server(List<String> alpns, List<CipherSuite> suites, List<X509Certificate> chain, PrivateKey key) {
        return new TlsConfig(List.copyOf(alpns), List.copyOf(suites), List.copyOf(chain), key, null, null, false);
    }

    public static TlsConfig client(List<String> alpns, List<CipherSuite> suites, String serverName,
                                   X509TrustManager trustManager, boolean verifyPeer) {
        return new TlsConfig(List.copyOf(alpns), List.copyOf(suites), List.of(), null, serverName, trustManager, verifyPeer);
    }
}
