package org.pacelab.quic.tls;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import javax.net.ssl.X509TrustManager;

import org.pacelab.quic.QuicException;
import org.pacelab.quic.TransportError;
import org.pacelab.quic.crypto.CipherSuite;
import org.pacelab.quic.packet.EncryptionLevel;
import org.pacelab.quic.stream.ReceiveBuffer;
import org.pacelab.quic.stream.SendBuffer;

import tech.kwik.agent15.NewSessionTicket;
import tech.kwik.agent15.ProtectionKeysType;
import tech.kwik.agent15.TlsConstants;
import tech.kwik.agent15.TlsProtocolException;
import tech.kwik.agent15.alert.ErrorAlert;
import tech.kwik.agent15.alert.MissingExtensionAlert;
import tech.kwik.agent15.alert.NoApplicationProtocolAlert;
import tech.kwik.agent15.engine.ClientMessageSender;
import tech.kwik.agent15.engine.ServerMessageSender;
import tech.kwik.agent15.engine.TlsClientEngine;
import tech.kwik.agent15.engine.TlsEngine;
import tech.kwik.agent15.engine.TlsMessageParser;
import tech.kwik.agent15.engine.TlsServerEngine;
import tech.kwik.agent15.engine.TlsStatusEventHandler;
import tech.kwik.agent15.engine.impl.TlsClientEngineImpl;
import tech.kwik.agent15.engine.impl.TlsServerEngineImpl;
import tech.kwik.agent15.extension.ApplicationLayerProtocolNegotiationExtension;
import tech.kwik.agent15.extension.EarlyDataExtension;
import tech.kwik.agent15.extension.ServerPreSharedKeyExtension;
import tech.kwik.agent15.extension.Extension;
import tech.kwik.agent15.handshake.CertificateMessage;
import tech.kwik.agent15.handshake.CertificateVerifyMessage;
import tech.kwik.agent15.handshake.ClientHello;
import tech.kwik.agent15.handshake.EncryptedExtensions;
import tech.kwik.agent15.handshake.FinishedMessage;
import tech.kwik.agent15.handshake.HandshakeMessage;
import tech.kwik.agent15.handshake.NewSessionTicketMessage;
import tech.kwik.agent15.handshake.ServerHello;

/**
 * The TLS 1.3 handshake of one QUIC connection (RFC 9001 §4), run by agent15's engines. CRYPTO stream
 * bytes go in per encryption level; handshake bytes to send come out per level; secrets and the peer's
 * transport parameters are reported to a {@link Listener}. No I/O, no clock.
 */
public final class TlsHandshake {

    /** What the connection learns from the handshake. */
    public interface Listener {
        /** Handshake or 1-RTT secrets became known. */
        void onSecrets(EncryptionLevel level, CipherSuite suite, byte[] clientSecret, byte[] serverSecret);

        /** The peer's encoded transport parameters arrived; throw to abort the handshake. */
        void onPeerTransportParameters(byte[] encoded) throws QuicException;

        /** The handshake completed (RFC 9001 §4.1.1). */
        void onHandshakeComplete();

        /** Client: the server issued a session ticket ({@code tlsTicket} as agent15 serializes it). */
        default void onSessionTicket(byte[] tlsTicket, boolean earlyDataAllowed) {}
    }

    /** RFC 9000 §7.5: buffer at least 4096 bytes of out-of-order CRYPTO data; we allow more. */
    private static final int MAX_CRYPTO_GAP = 64 * 1024;
    /** Largest handshake message accepted (certificate chains included). */
    private static final int MAX_MESSAGE = 64 * 1024;

    private final boolean isClient;
    private final TlsConfig config;
    private final Listener listener;
    private final KeyLogSink keyLog;
    private final TlsEngine engine;
    private final TlsMessageParser parser = new TlsMessageParser(TlsHandshake::parseExtension);
    private final ReceiveBuffer[] incoming = new ReceiveBuffer[4];
    private final ByteBuffer[] pendingMessage = new ByteBuffer[4];
    private final SendBuffer[] outgoing = new SendBuffer[4];
    private byte[] clientRandom;
    private String negotiatedProtocol;
    private boolean earlySecretReported;
    private boolean earlyDataAccepted;
    private boolean resumed;
    private boolean handshakeSecretsReported;
    private boolean applicationSecretsReported;
    private boolean complete;
    private QuicException listenerFailure;
    private final StatusHandler status;

    private TlsHandshake(boolean isClient, TlsConfig config, byte[] localTransportParameters, Listener listener,
                         KeyLogSink keyLog) {
        this.isClient = isClient;
        this.config = config;
        this.listener = listener;
        this.keyLog = keyLog;
        for (int i = 0; i < 4; i++) {
            incoming[i] = new ReceiveBuffer(ReceiveBuffer.CRYPTO_CHUNK);
            outgoing[i] = new SendBuffer(Long.MAX_VALUE);
        }
        StatusHandler status = new StatusHandler(localTransportParameters);
        this.status = status;
        if (isClient) {
            TlsClientEngineImpl client = new TlsClientEngineImpl(new ClientSender(), status);
            String name = config.serverName();
            boolean literal = isIpLiteral(name);
            // RFC 6066 §3: an IP address is not a server name (GnuTLS refuses "::1" with illegal_parameter); agent15
            // always sends SNI, so an address gets the neutral name "localhost" and is verified as the address
            client.setServerName(literal ? "localhost" : name);
            if (literal && config.verifyPeer()) {
                client.setHostnameVerifier((host, cert) -> new tech.kwik.agent15.engine.DefaultHostnameVerifier().verify(name, cert));
            }
            client.setCompatibilityMode(false);
            client.addSupportedCiphers(toAgent15(config.cipherSuites()));
            client.add(new ApplicationLayerProtocolNegotiationExtension(config.applicationProtocols()));
            client.add(new TransportParametersExtension(localTransportParameters));
            if (!config.verifyPeer()) {
                client.setTrustManager(TrustAll.INSTANCE);
                client.setHostnameVerifier((host, cert) -> true);
            } else if (config.trustManager() != null) {
                client.setTrustManager(config.trustManager());
            }
            if (config.resumption() != null) {
                // RFC 8446 §4.2.11: offer the ticket's PSK; §4.2.10: announce 0-RTT data when the ticket allows it
                client.setNewSessionTicket(NewSessionTicket.deserialize(config.resumption().tlsTicket()));
                if (config.earlyData() && config.resumption().earlyData()) {
                    client.add(new EarlyDataExtension());
                }
            }
            this.engine = client;
        } else {
            X509Certificate leaf = config.certificateChain().get(0);
            TlsServerEngineImpl server = new TlsServerEngineImpl(config.certificateChain(), config.privateKey(),
                    signatureSchemes(leaf), new ServerSender(), status,
                    config.tickets() != null ? config.tickets() : NoResumption.INSTANCE);
            server.addSupportedCiphers(toAgent15(config.cipherSuites()));
            this.engine = server;
        }
    }

    public static TlsHandshake client(TlsConfig config, byte[] localTransportParameters, Listener listener, KeyLogSink keyLog) {
        return new TlsHandshake(true, config, localTransportParameters, listener, keyLog);
    }

    public static TlsHandshake server(TlsConfig config, byte[] localTransportParameters, Listener listener, KeyLogSink keyLog) {
        return new TlsHandshake(false, config, localTransportParameters, listener, keyLog);
    }

    /**
     * Server: replaces the transport parameters it sends, until it sends them with its EncryptedExtensions — the
     * listener may call this from {@link Listener#onPeerTransportParameters} (compatible version negotiation changes
     * the chosen version in version_information, RFC 9368 §3).
     */
    public void setLocalTransportParameters(byte[] encoded) {
        if (isClient) {
            throw new IllegalStateException("a client's transport parameters are in its ClientHello already");
        }
        status.localTransportParameters = encoded.clone();
    }

    /** Client: produces the ClientHello. */
    public void start() throws QuicException {
        if (!isClient) {
            throw new IllegalStateException("only a client starts the handshake");
        }
        try {
            ((TlsClientEngine) engine).startHandshake(TlsConstants.NamedGroup.x25519, TlsClientEngineImpl.AVAILABLE_SIGNATURES);
        } catch (IOException e) {
            throw new QuicException(TransportError.INTERNAL_ERROR, "TLS handshake could not start: " + e.getMessage());
        }
    }

    /** Bytes waiting to be sent in CRYPTO frames at this level (the connection handles loss and ACKs). */
    public SendBuffer outgoing(EncryptionLevel level) {
        return outgoing[level.ordinal()];
    }

    /**
     * CRYPTO frame data received at a level (RFC 9001 §4.1.3). Complete handshake messages are handed to TLS.
     */
    public void receive(EncryptionLevel level, long offset, byte[] data) throws QuicException {
        ReceiveBuffer in = incoming[level.ordinal()];
        if (offset + data.length - in.readOffset() > MAX_CRYPTO_GAP) {
            throw new QuicException(TransportError.CRYPTO_BUFFER_EXCEEDED, 0x06,
                    "CRYPTO data at " + level + " too far ahead of what was read");
        }
        in.insert(offset, data);
        processMessages(level);
    }

    private void processMessages(EncryptionLevel level) throws QuicException {
        ReceiveBuffer in = incoming[level.ordinal()];
        while (true) {
            ByteBuffer msg = pendingMessage[level.ordinal()];
            if (msg == null) {
                if (in.readable() < 4) {
                    return;
                }
                byte[] header = new byte[4];
                in.read(ByteBuffer.wrap(header));
                int length = ((header[1] & 0xff) << 16) | ((header[2] & 0xff) << 8) | (header[3] & 0xff);
                if (length > MAX_MESSAGE) {
                    throw new QuicException(TransportError.CRYPTO_BUFFER_EXCEEDED, 0x06, "TLS message of " + length + " bytes");
                }
                msg = ByteBuffer.allocate(4 + length);
                msg.put(header);
                pendingMessage[level.ordinal()] = msg;
            }
            in.read(msg);
            if (msg.hasRemaining()) {
                return;
            }
            pendingMessage[level.ordinal()] = null;
            msg.flip();
            handle(level, msg);
        }
    }

    private void handle(EncryptionLevel level, ByteBuffer msg) throws QuicException {
        int type = msg.get(0) & 0xff;
        if (!HandshakeMessageLevels.allowed(type, level, isClient)) {
            if (type == HandshakeMessageLevels.END_OF_EARLY_DATA && !isClient) {
                throw new QuicException(TransportError.PROTOCOL_VIOLATION, 0x06, "EndOfEarlyData in QUIC (RFC 9001 §8.3)");
            }
            throw new QuicException(TransportError.cryptoError(TlsConstants.AlertDescription.unexpected_message.value), 0x06,
                    "TLS handshake message of type " + type + " at " + level + " (RFC 9001 §4)");
        }
        try {
            HandshakeMessage parsed = parser.parseHandshakeMessage(msg);
            if (parsed instanceof ClientHello ch) {
                clientRandom = ch.getClientRandom();
            }
            if (parsed instanceof ServerHello sh) {
                // RFC 8446 §4.2.11: the server's pre_shared_key extension says it accepted our PSK
                resumed = sh.getExtensions().stream().anyMatch(e -> e instanceof ServerPreSharedKeyExtension);
            }
            engine.received(parsed, protection(level));
        } catch (ErrorAlert alert) {
            if (listenerFailure != null) {
                QuicException e = listenerFailure;
                listenerFailure = null;
                throw e;
            }
            throw new QuicException(TransportError.cryptoError(alert.alertDescription().value), 0x06,
                    "TLS alert " + alert.alertDescription() + ": " + alert.getMessage());
        } catch (TlsProtocolException e) {
            if (listenerFailure != null) {
                QuicException q = listenerFailure;
                listenerFailure = null;
                throw q;
            }
            throw new QuicException(TransportError.cryptoError(TlsConstants.AlertDescription.internal_error.value), 0x06,
                    "TLS error: " + e.getMessage());
        } catch (IOException | RuntimeException e) {
            throw new QuicException(TransportError.cryptoError(TlsConstants.AlertDescription.decode_error.value), 0x06,
                    "malformed TLS message: " + e);
        }
        reportSecrets();
    }

    private void reportSecrets() {
        CipherSuite suite = selectedSuite();
        if (!earlySecretReported && engine.getClientEarlyTrafficSecret() != null && (earlyDataAccepted || isClient && offersEarlyData())) {
            // RFC 9001 §5.1, §4.6.1: 0-RTT keys from client_early_traffic_secret, with the ticket's suite (the
            // client before the server chose one: the suite the ticket was made with)
            earlySecretReported = true;
            CipherSuite early = suite != null ? suite : ticketSuite();
            byte[] c = engine.getClientEarlyTrafficSecret();
            log("CLIENT_EARLY_TRAFFIC_SECRET", c);
            if (early != null) {
                listener.onSecrets(EncryptionLevel.ZERO_RTT, early, c, null);
            }
        }
        if (!handshakeSecretsReported && engine.getServerHandshakeTrafficSecret() != null
                && engine.getClientHandshakeTrafficSecret() != null && suite != null) {
            handshakeSecretsReported = true;
            byte[] c = engine.getClientHandshakeTrafficSecret();
            byte[] s = engine.getServerHandshakeTrafficSecret();
            log("CLIENT_HANDSHAKE_TRAFFIC_SECRET", c);
            log("SERVER_HANDSHAKE_TRAFFIC_SECRET", s);
            listener.onSecrets(EncryptionLevel.HANDSHAKE, suite, c, s);
        }
        if (!applicationSecretsReported && engine.getServerApplicationTrafficSecret() != null
                && engine.getClientApplicationTrafficSecret() != null && suite != null) {
            applicationSecretsReported = true;
            byte[] c = engine.getClientApplicationTrafficSecret();
            byte[] s = engine.getServerApplicationTrafficSecret();
            log("CLIENT_TRAFFIC_SECRET_0", c);
            log("SERVER_TRAFFIC_SECRET_0", s);
            listener.onSecrets(EncryptionLevel.ONE_RTT, suite, c, s);
        }
    }

    /** Key log lines waiting for the ClientHello's random (the client's early secret is known before it is sent). */
    private final List<Object[]> pendingLog = new ArrayList<>();

    private void log(String label, byte[] secret) {
        if (clientRandom != null) {
            keyLog.log(label, clientRandom, secret);
        } else {
            pendingLog.add(new Object[] {label, secret});
        }
    }

    private void flushPendingLog() {
        for (Object[] l : pendingLog) {
            keyLog.log((String) l[0], clientRandom, (byte[]) l[1]);
        }
        pendingLog.clear();
    }

    /** The negotiated cipher suite, or null before the ServerHello. */
    public CipherSuite selectedSuite() {
        TlsConstants.CipherSuite s;
        try {
            s = isClient ? ((TlsClientEngine) engine).getSelectedCipher() : ((TlsServerEngine) engine).getSelectedCipher();
        } catch (IllegalStateException beforeServerHello) {
            return null; // agent15's client throws until a ServerHello arrived
        }
        return s == null ? null : CipherSuite.fromTlsCode(s.value & 0xffff);
    }

    /** Whether {@code name} is an IPv4 or IPv6 address rather than a DNS name. */
    static boolean isIpLiteral(String name) {
        return name != null && (name.indexOf(':') >= 0 || name.matches("[0-9]+(\\.[0-9]+){3}"));
    }

    /** Client: whether the ClientHello offers 0-RTT data (a ticket that allows it, and the config asks for it). */
    public boolean offersEarlyData() {
        return isClient && config.resumption() != null && config.earlyData() && config.resumption().earlyData();
    }

    /** Whether 0-RTT data was accepted: the server decided so; the client learns it from EncryptedExtensions. */
    public boolean earlyDataAccepted() {
        return earlyDataAccepted;
    }

    /** Whether the handshake resumed a session (the server accepted the client's PSK): no certificate was sent. */
    public boolean resumed() {
        return resumed;
    }

    private CipherSuite ticketSuite() {
        if (config.resumption() == null) {
            return null;
        }
        TlsConstants.CipherSuite s = NewSessionTicket.deserialize(config.resumption().tlsTicket()).getCipher();
        return s == null ? null : CipherSuite.fromTlsCode(s.value & 0xffff);
    }

    /** The negotiated ALPN protocol, or null before it is known. */
    public String applicationProtocol() { return negotiatedProtocol; }

    public boolean isComplete() { return complete; }

    /** The server's certificate chain as received (client side), for diagnostics. */
    public List<X509Certificate> peerCertificates() {
        return isClient ? ((TlsClientEngine) engine).getServerCertificateChain() : List.of();
    }

    private void queue(EncryptionLevel level, HandshakeMessage message) {
        outgoing[level.ordinal()].write(message.getBytes());
    }

    private static ProtectionKeysType protection(EncryptionLevel level) {
        return switch (level) {
            case INITIAL, ZERO_RTT -> ProtectionKeysType.None;
            case HANDSHAKE -> ProtectionKeysType.Handshake;
            case ONE_RTT -> ProtectionKeysType.Application;
        };
    }

    private static Extension parseExtension(ByteBuffer buffer, TlsConstants.HandshakeType context) throws TlsProtocolException {
        buffer.mark();
        int type = buffer.getShort() & 0xffff;
        buffer.reset();
        return type == TransportParametersExtension.CODEPOINT ? TransportParametersExtension.parse(buffer) : null;
    }

    private static List<TlsConstants.CipherSuite> toAgent15(List<CipherSuite> suites) {
        List<TlsConstants.CipherSuite> out = new ArrayList<>();
        for (CipherSuite s : suites) {
            out.add(switch (s) {
                case AES_128_GCM_SHA256 -> TlsConstants.CipherSuite.TLS_AES_128_GCM_SHA256;
                case AES_256_GCM_SHA384 -> TlsConstants.CipherSuite.TLS_AES_256_GCM_SHA384;
                case CHACHA20_POLY1305_SHA256 -> TlsConstants.CipherSuite.TLS_CHACHA20_POLY1305_SHA256;
            });
        }
        return out;
    }

    /** TLS 1.3 signature schemes usable with the server's key (RFC 8446 §4.2.3). */
    static List<TlsConstants.SignatureScheme> signatureSchemes(X509Certificate leaf) {
        if (leaf.getPublicKey() instanceof RSAPublicKey) {
            return List.of(TlsConstants.SignatureScheme.rsa_pss_rsae_sha256, TlsConstants.SignatureScheme.rsa_pss_rsae_sha384,
                    TlsConstants.SignatureScheme.rsa_pss_rsae_sha512);
        }
        if (leaf.getPublicKey() instanceof ECPublicKey ec) {
            int bits = ec.getParams().getCurve().getField().getFieldSize();
            return List.of(bits <= 256 ? TlsConstants.SignatureScheme.ecdsa_secp256r1_sha256
                    : bits <= 384 ? TlsConstants.SignatureScheme.ecdsa_secp384r1_sha384
                    : TlsConstants.SignatureScheme.ecdsa_secp521r1_sha512);
        }
        throw new IllegalArgumentException("unsupported certificate key type " + leaf.getPublicKey().getAlgorithm()
                + " (use RSA or EC)");
    }

    private final class ClientSender implements ClientMessageSender {
        @Override
        public void send(ClientHello ch) {
            clientRandom = ch.getClientRandom();
            flushPendingLog();
            queue(EncryptionLevel.INITIAL, ch);
        }

        @Override
        public void send(FinishedMessage finished) {
            queue(EncryptionLevel.HANDSHAKE, finished);
        }

        @Override
        public void send(CertificateMessage certificate) {
            queue(EncryptionLevel.HANDSHAKE, certificate);
        }

        @Override
        public void send(CertificateVerifyMessage certificateVerify) {
            queue(EncryptionLevel.HANDSHAKE, certificateVerify);
        }
    }

    private final class ServerSender implements ServerMessageSender {
        @Override
        public void send(ServerHello sh) {
            resumed = sh.getExtensions().stream().anyMatch(e -> e instanceof ServerPreSharedKeyExtension);
            queue(EncryptionLevel.INITIAL, sh);
        }

        @Override
        public void send(EncryptedExtensions ee) {
            queue(EncryptionLevel.HANDSHAKE, ee);
        }

        @Override
        public void send(CertificateMessage certificate) {
            queue(EncryptionLevel.HANDSHAKE, certificate);
        }

        @Override
        public void send(CertificateVerifyMessage certificateVerify) {
            queue(EncryptionLevel.HANDSHAKE, certificateVerify);
        }

        @Override
        public void send(FinishedMessage finished) {
            queue(EncryptionLevel.HANDSHAKE, finished);
            // the server knows its handshake secrets before this point and 1-RTT secrets right after
        }

        @Override
        public void send(NewSessionTicketMessage ticket) {
            queue(EncryptionLevel.ONE_RTT, ticket);
        }
    }

    private final class StatusHandler implements TlsStatusEventHandler {
        private byte[] localTransportParameters;

        StatusHandler(byte[] localTransportParameters) {
            this.localTransportParameters = localTransportParameters;
        }

        @Override
        public void earlySecretsKnown() {
            reportSecrets();
        }

        @Override
        public void handshakeSecretsKnown() {
            reportSecrets();
        }

        @Override
        public void handshakeFinished() {
            reportSecrets();
            complete = true;
            listener.onHandshakeComplete();
        }

        @Override
        public void newSessionTicketReceived(NewSessionTicket ticket) {
            // RFC 9001 §4.6.1: only a ticket whose max_early_data_size is 0xffffffff allows 0-RTT
            listener.onSessionTicket(ticket.serialize(), ticket.hasEarlyDataExtension() && ticket.getEarlyDataMaxSize() == 0xffffffffL);
        }

        @Override
        public void extensionsReceived(List<Extension> extensions) throws TlsProtocolException {
            Optional<ApplicationLayerProtocolNegotiationExtension> alpn = extensions.stream()
                    .filter(e -> e instanceof ApplicationLayerProtocolNegotiationExtension)
                    .map(e -> (ApplicationLayerProtocolNegotiationExtension) e).findFirst();
            if (alpn.isEmpty()) {
                // RFC 9001 §8.1: endpoints MUST use ALPN
                throw new NoApplicationProtocolAlert(config.applicationProtocols());
            }
            if (isClient) {
                List<String> chosen = alpn.get().getProtocols();
                if (chosen.size() != 1 || !config.applicationProtocols().contains(chosen.get(0))) {
                    throw new NoApplicationProtocolAlert(config.applicationProtocols());
                }
                negotiatedProtocol = chosen.get(0);
                // EncryptedExtensions carry early_data when the server accepted 0-RTT (RFC 8446 §4.2.10)
                earlyDataAccepted = offersEarlyData() && extensions.stream().anyMatch(e -> e instanceof EarlyDataExtension);
            } else {
                // the client's preference order decides among protocols both sides support
                negotiatedProtocol = alpn.get().getProtocols().stream()
                        .filter(config.applicationProtocols()::contains).findFirst()
                        .orElseThrow(() -> new NoApplicationProtocolAlert(alpn.get().getProtocols()));
                ((TlsServerEngine) engine).addServerExtensions(new ApplicationLayerProtocolNegotiationExtension(negotiatedProtocol));
                // agent15 compares it with the ticket's protocol before it accepts 0-RTT (RFC 8446 §4.2.10)
                ((TlsServerEngine) engine).setSelectedApplicationLayerProtocol(negotiatedProtocol);
            }
            Optional<TransportParametersExtension> tp = extensions.stream()
                    .filter(e -> e instanceof TransportParametersExtension)
                    .map(e -> (TransportParametersExtension) e).findFirst();
            if (tp.isEmpty()) {
                // RFC 9001 §8.2: missing_extension (0x16d)
                throw new MissingExtensionAlert("quic_transport_parameters extension missing");
            }
            try {
                listener.onPeerTransportParameters(tp.get().parameters());
            } catch (QuicException e) {
                listenerFailure = e;
                throw new TlsProtocolException("transport parameters rejected: " + e.getMessage());
            }
            if (!isClient) {
                ((TlsServerEngine) engine).addServerExtensions(new TransportParametersExtension(localTransportParameters));
            }
        }

        /** Server: agent15 asks this only for a resumed session whose ticket, suite and protocol allow 0-RTT. */
        @Override
        public boolean isEarlyDataAccepted() {
            earlyDataAccepted = !isClient && config.earlyData();
            return earlyDataAccepted;
        }
    }

    /** Trust manager for {@code --insecure}: accepts any chain. */
    private enum TrustAll implements X509TrustManager {
        INSTANCE;

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
