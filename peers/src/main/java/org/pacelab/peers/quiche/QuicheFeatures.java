package org.pacelab.peers.quiche;

/**
 * What the quiche peer does beyond serving and downloading, on what Netty's QUIC codec (quiche 0.29.3 underneath)
 * exposes, for the QUIC Interop Runner's test names.
 *
 * <p>Server: {@code retry} answers every Initial without a token with a Retry (Netty's
 * {@code InsecureQuicTokenHandler} as the codec's token handler; without one Netty sends none); {@code earlyData}
 * accepts 0-RTT ({@code QuicSslContextBuilder.earlyData(true)}; BoringSSL issues session tickets either way).
 *
 * <p>Client: {@code resume} makes two connections in one process with one TLS context, so the second resumes the
 * session of the first from Netty's client session cache (BoringSSL's sessions cannot be written to a file through
 * Netty); {@code zeroRtt} also enables early data and opens the second connection's streams when Netty signals that
 * 0-RTT may be sent ({@code SslEarlyDataReadyEvent}), so its requests leave in 0-RTT packets.
 *
 * @param retry     server: send a Retry
 * @param earlyData server: accept 0-RTT
 * @param resume    client: a second connection that resumes the first's session
 * @param zeroRtt   client: the second connection's requests in 0-RTT (implies {@code resume})
 */
public record QuicheFeatures(boolean retry, boolean earlyData, boolean resume, boolean zeroRtt) {
    public static final QuicheFeatures NONE = new QuicheFeatures(false, false, false, false);

    public static QuicheFeatures server(boolean retry, boolean earlyData) {
        return new QuicheFeatures(retry, earlyData, false, false);
    }

    public static QuicheFeatures client(boolean resume, boolean zeroRtt) {
        return new QuicheFeatures(false, false, resume || zeroRtt, zeroRtt);
    }
}
