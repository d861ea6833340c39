package org.pacelab.peers.kwik;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.interfaces.ECPublicKey;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;

import org.pacelab.io.tls.Certificates;
import org.pacelab.quic.content.ContentSource;
import org.pacelab.quic.content.ServedRequest;

import tech.kwik.core.QuicConnection;
import tech.kwik.core.log.Logger;
import tech.kwik.core.log.NullLogger;
import tech.kwik.core.log.SysOutLogger;
import tech.kwik.core.server.ServerConnectionConfig;
import tech.kwik.core.server.ServerConnector;

/**
 * The Kwik peer's server: Kwik's QUIC transport with Flupke's HTTP/3 server (ALPN {@code h3}) and an hq-interop
 * server ({@link HqInteropProtocol}), both over a {@link ContentSource}. NewReno, unpaced. Responses are written
 * under a {@link SendRequestWatchdog} (a Kwik 0.10.9 race would otherwise stall some of them).
 */
public final class KwikServer implements AutoCloseable {
    private static final String ALIAS = "pacelab";
    private static final char[] PASSWORD = "pacelab".toCharArray();

    private final ServerConnector connector;
    private final DatagramSocket socket;
    private final CountDownLatch closed = new CountDownLatch(1);

    private final SendRequestWatchdog watchdog;
    private final WatchedHttp3Protocol h3;
    /** The log file when {@link KwikOptions#log()} is set, else null. */
    private final KwikLogFile logFile;

    private KwikServer(ServerConnector connector, DatagramSocket socket, SendRequestWatchdog watchdog, WatchedHttp3Protocol h3,
                       KwikLogFile logFile) {
        this.connector = connector;
        this.socket = socket;
        this.watchdog = watchdog;
        this.h3 = h3;
        this.logFile = logFile;
    }

    public static KwikServer start(InetSocketAddress listen, KwikOptions options, Certificates.Identity identity,
                                   ContentSource content, Consumer<ServedRequest> requests) throws IOException {
        return start(listen, options, KwikFeatures.NONE, identity, content, requests);
    }

    /** As {@link #start(InetSocketAddress, KwikOptions, Certificates.Identity, ContentSource, Consumer)}, with a Retry or QUIC v2. */
    public static KwikServer start(InetSocketAddress listen, KwikOptions options, KwikFeatures features,
                                   Certificates.Identity identity, ContentSource content, Consumer<ServedRequest> requests)
            throws IOException {
        DatagramSocket socket = new DatagramSocket(listen);
        KwikLogFile logFile = null;
        try {
            socket.setReceiveBufferSize(16 << 20);
            socket.setSendBufferSize(16 << 20);
            ServerConnectionConfig config = ServerConnectionConfig.builder()
                    .maxIdleTimeout((int) options.idleTimeoutMs())
                    .maxConnectionBufferSize(options.connectionWindow())
                    .maxBidirectionalStreamBufferSize(options.streamWindow())
                    .maxUnidirectionalStreamBufferSize(options.streamWindow())
                    // Flupke needs the peer's control and QPACK streams (RFC 9114 §6.2): without this HTTP/3 clients refuse us.
                    .maxOpenPeerInitiatedUnidirectionalStreams(10)
                    .maxOpenPeerInitiatedBidirectionalStreams(100)
                    .retryRequired(features.retry())
                    .build();
            if (options.log() != null) {
                logFile = KwikLogFile.open(options.log(), "pacelab kwik-server: listening on "
                        + socket.getLocalSocketAddress(), options.logPackets());
            }
            Logger log = logFile != null ? logFile : logger(options);
            ServerConnector.Builder b = ServerConnector.builder()
                    .withSocket(socket)
                    .withConfiguration(config)
                    .withLogger(log);
            if (features.v2()) {
                // v1 first: a v1 Initial is answered in v1 unless the client prefers v2 (RFC 9368 compatible negotiation)
                b.withSupportedVersions(List.of(QuicConnection.QuicVersion.V1, QuicConnection.QuicVersion.V2));
            }
            KeyStore ks = keyStore(identity);
            if (identity.leaf().getPublicKey() instanceof ECPublicKey) {
                b.withKeyStore(ks, ALIAS, PASSWORD, "secp256r1");
            } else {
                b.withKeyStore(ks, ALIAS, PASSWORD);
            }
            ServerConnector connector = b.build();
            SendRequestWatchdog watchdog = new SendRequestWatchdog();
            WatchedHttp3Protocol h3 = new WatchedHttp3Protocol(new ContentRequestHandler(content, requests), watchdog);
            connector.registerApplicationProtocol("h3", h3);
            connector.registerApplicationProtocol(HqInteropProtocol.ALPN, new HqInteropProtocol(content, requests, watchdog));
            connector.start();
            return new KwikServer(connector, socket, watchdog, h3, logFile);
        } catch (GeneralSecurityException | IOException | RuntimeException e) {
            socket.close();
            if (logFile != null) {
                logFile.close();
            }
            throw new IOException("cannot start the Kwik server: " + e.getMessage(), e);
        }
    }

    static Logger logger(KwikOptions options) {
        if (!options.logPackets()) {
            return new NullLogger();
        }
        SysOutLogger log = new SysOutLogger();
        log.logPackets(true);
        log.logInfo(true);
        return log;
    }

    private static KeyStore keyStore(Certificates.Identity id) throws GeneralSecurityException, IOException {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        ks.setKeyEntry(ALIAS, id.key(), PASSWORD, id.chain().toArray(Certificate[]::new));
        return ks;
    }

    public InetSocketAddress localAddress() {
        return (InetSocketAddress) socket.getLocalSocketAddress();
    }

    /** Blocks until {@link #close()}. */
    public void await() throws InterruptedException {
        closed.await();
    }

    @Override
    public void close() {
        connector.close();
        socket.close();
        watchdog.close();
        h3.close();
        if (logFile != null) {
            logFile.close();
        }
        closed.countDown();
    }
}
