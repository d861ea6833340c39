package org.pacelab.peers.kwik;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.interfaces.ECPublicKey;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;

import org.pacelab.io.tls.Certificates;
import org.pacelab.quic.content.ContentSource;
import org.pacelab.quic.content.ServedRequest;

import tech.kwik.core.log.Logger;
import tech.kwik.core.log.NullLogger;
import tech.kwik.core.log.SysOutLogger;
import tech.kwik.core.server.ServerConnectionConfig;
import tech.kwik.core.server.ServerConnector;
import tech.kwik.flupke.server.Http3ApplicationProtocolFactory;

/**
 * The Kwik peer's server: Kwik's QUIC transport with Flupke's HTTP/3 server (ALPN {@code h3}) and an hq-interop
 * server ({@link HqInteropProtocol}), both over a {@link ContentSource}. NewReno, unpaced.
 */
public final class KwikServer implements AutoCloseable {
    private static final String ALIAS = "pacelab";
    private static final char[] PASSWORD = "pacelab".toCharArray();

    private final ServerConnector connector;
    private final DatagramSocket socket;
    private final CountDownLatch closed = new CountDownLatch(1);

    private KwikServer(ServerConnector connector, DatagramSocket socket) {
        this.connector = connector;
        this.socket = socket;
    }

    public static KwikServer start(InetSocketAddress listen, KwikOptions options, Certificates.Identity identity,
                                   ContentSource content, Consumer<ServedRequest> requests) throws IOException {
        DatagramSocket socket = new DatagramSocket(listen);
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
                    .build();
            Logger log = logger(options);
            ServerConnector.Builder b = ServerConnector.builder()
                    .withSocket(socket)
                    .withConfiguration(config)
                    .withLogger(log);
            KeyStore ks = keyStore(identity);
            if (identity.leaf().getPublicKey() instanceof ECPublicKey) {
                b.withKeyStore(ks, ALIAS, PASSWORD, "secp256r1");
            } else {
                b.withKeyStore(ks, ALIAS, PASSWORD);
            }
            ServerConnector connector = b.build();
            connector.registerApplicationProtocol("h3", new Http3ApplicationProtocolFactory(new ContentRequestHandler(content, requests)));
            connector.registerApplicationProtocol(HqInteropProtocol.ALPN, new HqInteropProtocol(content, requests));
            connector.start();
            return new KwikServer(connector, socket);
        } catch (GeneralSecurityException | RuntimeException e) {
            socket.close();
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
        closed.countDown();
    }
}
