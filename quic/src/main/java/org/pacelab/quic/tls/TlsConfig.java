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
 * @param tickets              server only: the endpoint's session tickets (issued after each handshake, accepted for
 *                             resumption); null issues none and resumes nothing
 * @param resumption           client only: the ticket to resume with, or null for a full handshake
 * @param earlyData            server: accept 0-RTT data with a resumed session; client: offer it when the ticket allows
 */
public record TlsConfig(List<String> applicationProtocols, List<CipherSuite> cipherSuites,
                        List<X509Certificate> certificateChain, PrivateKey privateKey,
                        String serverName, X509TrustManager trustManager, boolean verifyPeer,
                        SessionTickets tickets, SessionTicket resumption, boolean earlyData) {

    public static final List<CipherSuite> ALL_SUITES = List.of(CipherSuite.AES_128_GCM_SHA256,
            CipherSuite.AES_256_GCM_SHA384, CipherSuite.CHACHA20_POLY1305_SHA256);

    public static TlsConfig server(List<String> alpns, List<CipherSuite> suites, List<X509Certificate> chain, PrivateKey key) {
        return new TlsConfig(List.copyOf(alpns), List.copyOf(suites), List.copyOf(chain), key, null, null, false, null, null, false);
    }

    public static TlsConfig client(List<String> alpns, List<CipherSuite> suites, String serverName,
                                   X509TrustManager trustManager, boolean verifyPeer) {
        return new TlsConfig(List.copyOf(alpns), List.copyOf(suites), List.of(), null, serverName, trustManager, verifyPeer,
                null, null, false);
    }

    /** A server issuing and accepting {@code tickets}; 0-RTT is accepted on resumption when the tickets allow it. */
    public TlsConfig withTickets(SessionTickets tickets) {
        return new TlsConfig(applicationProtocols, cipherSuites, certificateChain, privateKey, serverName, trustManager, verifyPeer,
                tickets, resumption, tickets != null && tickets.earlyData());
    }

    /** A client resuming with {@code ticket} (null: a full handshake); with {@code offerEarlyData} it offers 0-RTT. */
    public TlsConfig withResumption(SessionTicket ticket, boolean offerEarlyData) {
        return new TlsConfig(applicationProtocols, cipherSuites, certificateChain, privateKey, serverName, trustManager, verifyPeer,
                tickets, ticket, offerEarlyData);
    }
}
