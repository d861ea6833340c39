package org.pacelab.peers;

import java.nio.file.Path;

/**
 * How a peer client sets up TLS.
 *
 * @param alpn       the application protocol to offer: {@code h3} or {@code hq-interop}
 * @param serverName the server name to send (SNI) and to verify the certificate against
 * @param caFile     PEM file of CA certificates to trust, or null for the JDK's trust store
 * @param insecure   accept any server certificate
 */
public record ClientTls(String alpn, String serverName, Path caFile, boolean insecure) {
    public ClientTls {
        if (!"h3".equals(alpn) && !"hq-interop".equals(alpn)) {
            throw new IllegalArgumentException("application protocol '" + alpn + "' is not supported; valid: h3, hq-interop");
        }
    }
}
