package org.pacelab.peers.kwik;

import java.nio.file.Path;
import java.util.List;

import tech.kwik.agent15.TlsConstants;

/**
 * What the Kwik peer does beyond serving and downloading, on Kwik 0.10.9's own API, for the QUIC Interop Runner's test
 * names (mapped by the lab's interop endpoint as Kwik's own interop programs would).
 *
 * <p>Server: {@code retry} sends a Retry before every connection ({@code ServerConnectionConfig.retryRequired}),
 * {@code v2} lets the server switch to QUIC v2 when the client prefers it in its version_information
 * ({@code ServerConnector.Builder.withSupportedVersions(V1, V2)}). Kwik's server issues session tickets and accepts
 * 0-RTT, and accepts TLS_CHACHA20_POLY1305_SHA256, without being told.
 *
 * <p>Client: {@code cipherSuites} are the only TLS 1.3 suites offered, in order ({@code Builder.cipherSuite}; the
 * runner's chacha20: TLS_CHACHA20_POLY1305_SHA256 alone); {@code keyUpdate}
 * initiates a key update once {@link #KEY_UPDATE_AFTER} bytes of response data arrived (Kwik's
 * {@code QuicClientConnectionImpl.updateKeys()}, which refuses before the handshake is confirmed: by then it is);
 * {@code negotiateV2} starts in v1 and prefers v2 by compatible version negotiation ({@code initialVersion(V1)},
 * {@code preferredVersion(V2)}); {@code sessionTicket} resumes with the ticket in that file when it exists and writes
 * the newest ticket the server sent into it ({@code QuicSessionTicket.serialize()}, {@code Builder.sessionTicket(byte[])});
 * {@code zeroRtt} sends the hq-interop requests as 0-RTT early data with that ticket
 * ({@code QuicClientConnection.connect(List<StreamEarlyData>)}).
 *
 * @param retry         server: send a Retry
 * @param v2            server: QUIC v2 supported beside v1
 * @param cipherSuites  client: the TLS 1.3 cipher suites offered (names of Kwik's {@code TlsConstants.CipherSuite}),
 *                      empty for Kwik's default
 * @param keyUpdate     client: initiate a key update during the download
 * @param negotiateV2   client: start in v1, prefer v2
 * @param sessionTicket client: the session ticket file, or null
 * @param zeroRtt       client: requests in 0-RTT (needs {@code sessionTicket})
 */
public record KwikFeatures(boolean retry, boolean v2, List<String> cipherSuites, boolean keyUpdate, boolean negotiateV2,
                           Path sessionTicket, boolean zeroRtt) {
    /** Response bytes after which the client initiates its key update. */
    public static final long KEY_UPDATE_AFTER = 64 * 1024;

    /** The TLS 1.3 suites Kwik 0.10.9 (agent15 3.1) can offer. */
    public static final List<String> CIPHER_SUITES = List.of("TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384",
            "TLS_CHACHA20_POLY1305_SHA256");

    public static final KwikFeatures NONE = new KwikFeatures(false, false, List.of(), false, false, null, false);

    public KwikFeatures {
        cipherSuites = List.copyOf(cipherSuites);
        for (String c : cipherSuites) {
            if (!CIPHER_SUITES.contains(c)) {
                throw new IllegalArgumentException("cipher suite '" + c + "' is not one Kwik offers; valid: "
                        + String.join(", ", CIPHER_SUITES));
            }
        }
        if (zeroRtt && sessionTicket == null) {
            throw new IllegalArgumentException("--zero-rtt needs --session-ticket FILE (the ticket of an earlier connection)");
        }
    }

    public static KwikFeatures server(boolean retry, boolean v2) {
        return new KwikFeatures(retry, v2, List.of(), false, false, null, false);
    }

    public static KwikFeatures client(List<String> cipherSuites, boolean keyUpdate, boolean negotiateV2, Path sessionTicket,
                                      boolean zeroRtt) {
        return new KwikFeatures(false, false, cipherSuites, keyUpdate, negotiateV2, sessionTicket, zeroRtt);
    }

    /** The cipher suites as Kwik's constants. */
    List<TlsConstants.CipherSuite> kwikCipherSuites() {
        return cipherSuites.stream().map(TlsConstants.CipherSuite::valueOf).toList();
    }
}
