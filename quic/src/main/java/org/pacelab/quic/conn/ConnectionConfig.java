package org.pacelab.quic.conn;

import java.util.List;
import java.util.function.Function;

import org.pacelab.quic.packet.QuicVersion;
import org.pacelab.quic.qlog.QlogSink;
import org.pacelab.quic.stream.StreamLimits;
import org.pacelab.quic.tls.KeyLogSink;
import org.pacelab.quic.tls.TlsConfig;

/**
 * Settings of one QUIC connection. Times are nanoseconds.
 *
 * @param tls                     TLS settings (ALPN, cipher suites, certificates or trust)
 * @param streams                 stream and flow-control limits
 * @param idleTimeout             max_idle_timeout we advertise (0 = none)
 * @param maxUdpPayloadSize       largest UDP payload we send (and advertise as max_udp_payload_size)
 * @param ackDelayExponent        ack_delay_exponent we use and advertise
 * @param maxAckDelay             max_ack_delay we promise
 * @param ackElicitingThreshold   ack-eliciting packets received before an immediate ACK (RFC 9000 §13.2.2: 2)
 * @param activeConnectionIdLimit how many connection IDs we accept from the peer
 * @param localCidLength          length of the connection IDs we issue
 * @param initialRtt              RTT assumed before the first sample (RFC 9002 §6.2.2)
 * @param keyUpdateInterval       initiate a key update after this many 1-RTT packets sent and received (0 = never)
 * @param pacingLookahead         how far ahead of {@code now} a packet may be released with a future intended
 *                                send time (for SO_TXTIME-style strategies; 0 = never ahead)
 * @param congestion              congestion controller and pacer settings
 * @param qlog                    creates the qlog sink for a connection, given its original DCID
 * @param keyLog                  receives TLS secrets (SSLKEYLOGFILE)
 * @param ecn                     mark packets ECT(0) and validate the path's ECN (RFC 9000 §13.4.2); the runtime must
 *                                also hand the received ECN codepoints in for the peer's packets to be counted
 * @param versions                the QUIC versions spoken, in preference order (RFC 9368): a client starts with QUIC
 *                                v1 when it speaks it, else with the first ({@link #clientOriginalVersion()}), and
 *                                offers them all in this order in version_information; a server switches a connection
 *                                to the first of them the client offers (compatible version negotiation, v1 and v2)
 * @param maxAckRatio             the most ack-eliciting packets we ask a peer to receive per ACK with ACK_FREQUENCY
 *                                (draft-ietf-quic-ack-frequency; sent only to peers that announce min_ack_delay);
 *                                0 = never ask, the peer acknowledges as RFC 9000 §13.2 says
 * @param minAckDelay             the min_ack_delay we announce, ns: we accept ACK_FREQUENCY and IMMEDIATE_ACK and
 *                                delay ACKs no less than this; negative = do not announce (the extension is off)
 * @param preferredAddress        server: the address(es) a connection offers in its preferred_address transport
 *                                parameter (RFC 9000 §9.6, §18.2), or null to offer none; the runtime listens there
 * @param usePreferredAddress     client: once the handshake is confirmed, validate and move to a preferred address the
 *                                server offers in the address family in use (RFC 9000 §9.6.1); false stays on the
 *                                handshake's path (ngtcp2's {@code --no-preferred-addr})
 */
public record ConnectionConfig(TlsConfig tls, StreamLimits streams, long idleTimeout, int maxUdpPayloadSize,
                               int ackDelayExponent, long maxAckDelay, int ackElicitingThreshold,
                               int activeConnectionIdLimit, int localCidLength, long initialRtt, long keyUpdateInterval,
                               long pacingLookahead, CongestionConfig congestion, Function<byte[], QlogSink> qlog,
                               KeyLogSink keyLog, boolean ecn, List<Integer> versions, int maxAckRatio,
                               long minAckDelay, PreferredAddressConfig preferredAddress, boolean usePreferredAddress) {

    /** RFC 9000 §14: the smallest datagram an Initial may travel in. */
    public static final int MIN_INITIAL_SIZE = 1200;
    /**
     * Default ACK ratio we ask of peers that support ACK frequency: 0, do not ask — the peer keeps RFC 9000's ACK every
     * second packet, as the studies' stacks did, because fewer ACKs change the sender's packet trains (in the
     * simulator's quic-steps run, ratio 10 cut the share of packets in trains of at most 2 from 0.52 to 0.07). A lab's
     * default must not move what it measures as a side effect of a speed lever; {@link #SUGGESTED_MAX_ACK_RATIO}
     * turns it on.
     */
    public static final int DEFAULT_MAX_ACK_RATIO = 0;
    /**
     * The ratio to ask for when ACK frequency is wanted ({@code --max-ack-ratio 10}): at most 10 packets per ACK
     * (Chromium's ACK decimation; Custura et al., "Reducing the acknowledgement frequency in IETF QUIC", 2022), and
     * never fewer than four ACKs per congestion window (see AckFrequencySender).
     */
    public static final int SUGGESTED_MAX_ACK_RATIO = 10;
    /** RFC 9000 §13.2.2: acknowledge at least every second ack-eliciting packet. */
    public static final int RFC_ACK_ELICITING_THRESHOLD = 2;
    /** The min_ack_delay we announce by default: 1 ms, the timer granularity of RFC 9002 §6.1.2. */
    public static final long DEFAULT_MIN_ACK_DELAY = 1_000_000L;

    public ConnectionConfig {
        versions = List.copyOf(versions);
        if (versions.isEmpty() || !versions.stream().allMatch(QuicVersion::isSupported)) {
            throw new IllegalArgumentException("versions must name one or more of QUIC v1 and v2, not " + versions);
        }
        if (maxUdpPayloadSize < MIN_INITIAL_SIZE) {
            throw new IllegalArgumentException("max UDP payload size must be at least 1200 bytes, not " + maxUdpPayloadSize);
        }
        if (localCidLength < 1 || localCidLength > 20) {
            throw new IllegalArgumentException("connection ID length must be 1..20, not " + localCidLength);
        }
        if (activeConnectionIdLimit < 2) {
            throw new IllegalArgumentException("active_connection_id_limit must be at least 2");
        }
        if (maxAckRatio < 0) {
            throw new IllegalArgumentException("the ACK ratio must be 0 (off) or more packets per ACK, not " + maxAckRatio);
        }
        if (minAckDelay > maxAckDelay) {
            throw new IllegalArgumentException("min_ack_delay must not exceed max_ack_delay (draft-ietf-quic-ack-frequency §3)");
        }
    }

    /** Defaults: 30 s idle timeout, 1452-byte datagrams, RFC ack settings. */
    public static ConnectionConfig defaults(TlsConfig tls, CongestionConfig congestion) {
        return new ConnectionConfig(tls, StreamLimits.defaults(), 30_000_000_000L, 1452, 3, 25_000_000L,
                RFC_ACK_ELICITING_THRESHOLD, 4, 8,
                333_000_000L, 0, 0, congestion, odcid -> QlogSink.NONE, KeyLogSink.NONE, false,
                List.of(QuicVersion.V1, QuicVersion.V2), DEFAULT_MAX_ACK_RATIO, DEFAULT_MIN_ACK_DELAY, null, true);
    }

    /**
     * The version of a client's first Initial (its Original Version, RFC 9368 §2.1): QUIC v1 when the client speaks it
     * — every server does — so that a client preferring v2 ({@code [v2, v1]}) says so in its version_information and
     * is moved to v2 by compatible version negotiation from a v1 first flight, as the Interop Runner's v2 case asks
     * (servers that take the client's first compatible version, aioquic's and picoquic's, otherwise stayed in v1);
     * else its first version.
     */
    public int clientOriginalVersion() {
        return versions.contains(QuicVersion.V1) ? QuicVersion.V1 : versions.getFirst();
    }

    /** With these versions, in preference order (a client starts with v1 among them, {@link #clientOriginalVersion()}). */
    public ConnectionConfig withVersions(List<Integer> v) {
        return toBuilder().versions(v).build();
    }

    /** With ECN marking and validation on or off. */
    public ConnectionConfig withEcn(boolean on) {
        return toBuilder().ecn(on).build();
    }

    public ConnectionConfig withTls(TlsConfig t) {
        return toBuilder().tls(t).build();
    }

    public ConnectionConfig withStreams(StreamLimits s) {
        return toBuilder().streams(s).build();
    }

    public ConnectionConfig withIdleTimeout(long t) {
        return toBuilder().idleTimeout(t).build();
    }

    public ConnectionConfig withMaxUdpPayloadSize(int size) {
        return toBuilder().maxUdpPayloadSize(size).build();
    }

    public ConnectionConfig withKeyUpdateInterval(long packets) {
        return toBuilder().keyUpdateInterval(packets).build();
    }

    public ConnectionConfig withPacingLookahead(long nanos) {
        return toBuilder().pacingLookahead(nanos).build();
    }

    public ConnectionConfig withCongestion(CongestionConfig c) {
        return toBuilder().congestion(c).build();
    }

    public ConnectionConfig withQlog(Function<byte[], QlogSink> q) {
        return toBuilder().qlog(q).build();
    }

    public ConnectionConfig withKeyLog(KeyLogSink k) {
        return toBuilder().keyLog(k).build();
    }

    /** The most packets per ACK we ask a peer for (0: do not send ACK_FREQUENCY). */
    public ConnectionConfig withMaxAckRatio(int packets) {
        return toBuilder().maxAckRatio(packets).build();
    }

    /** The min_ack_delay we announce, ns (negative: the ACK frequency extension is off on our side). */
    public ConnectionConfig withMinAckDelay(long nanos) {
        return toBuilder().minAckDelay(nanos).build();
    }

    /** Server: offer this preferred address (RFC 9000 §9.6); null offers none. */
    public ConnectionConfig withPreferredAddress(PreferredAddressConfig p) {
        return toBuilder().preferredAddress(p).build();
    }

    /** Client: whether to move to a server's preferred address (RFC 9000 §9.6.1). */
    public ConnectionConfig withUsePreferredAddress(boolean use) {
        return toBuilder().usePreferredAddress(use).build();
    }

    public ConnectionConfig withAckElicitingThreshold(int packets) {
        return toBuilder().ackElicitingThreshold(packets).build();
    }

    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Changes some settings of a configuration. */
    public static final class Builder {
        private TlsConfig tls;
        private StreamLimits streams;
        private long idleTimeout;
        private int maxUdpPayloadSize;
        private int ackDelayExponent;
        private long maxAckDelay;
        private int ackElicitingThreshold;
        private int activeConnectionIdLimit;
        private int localCidLength;
        private long initialRtt;
        private long keyUpdateInterval;
        private long pacingLookahead;
        private CongestionConfig congestion;
        private Function<byte[], QlogSink> qlog;
        private KeyLogSink keyLog;
        private boolean ecn;
        private List<Integer> versions;
        private int maxAckRatio;
        private long minAckDelay;
        private PreferredAddressConfig preferredAddress;
        private boolean usePreferredAddress;

        private Builder(ConnectionConfig c) {
            tls = c.tls;
            streams = c.streams;
            idleTimeout = c.idleTimeout;
            maxUdpPayloadSize = c.maxUdpPayloadSize;
            ackDelayExponent = c.ackDelayExponent;
            maxAckDelay = c.maxAckDelay;
            ackElicitingThreshold = c.ackElicitingThreshold;
            activeConnectionIdLimit = c.activeConnectionIdLimit;
            localCidLength = c.localCidLength;
            initialRtt = c.initialRtt;
            keyUpdateInterval = c.keyUpdateInterval;
            pacingLookahead = c.pacingLookahead;
            congestion = c.congestion;
            qlog = c.qlog;
            keyLog = c.keyLog;
            maxAckRatio = c.maxAckRatio;
            minAckDelay = c.minAckDelay;
            ecn = c.ecn;
            versions = c.versions;
            preferredAddress = c.preferredAddress;
            usePreferredAddress = c.usePreferredAddress;
        }

        public Builder preferredAddress(PreferredAddressConfig v) {
            preferredAddress = v;
            return this;
        }

        public Builder usePreferredAddress(boolean v) {
            usePreferredAddress = v;
            return this;
        }

        public Builder versions(List<Integer> v) {
            versions = v;
            return this;
        }

        public Builder ecn(boolean v) {
            ecn = v;
            return this;
        }

        public Builder tls(TlsConfig v) {
            tls = v;
            return this;
        }

        public Builder streams(StreamLimits v) {
            streams = v;
            return this;
        }

        public Builder idleTimeout(long v) {
            idleTimeout = v;
            return this;
        }

        public Builder maxUdpPayloadSize(int v) {
            maxUdpPayloadSize = v;
            return this;
        }

        public Builder ackDelayExponent(int v) {
            ackDelayExponent = v;
            return this;
        }

        public Builder maxAckDelay(long v) {
            maxAckDelay = v;
            return this;
        }

        public Builder ackElicitingThreshold(int v) {
            ackElicitingThreshold = v;
            return this;
        }

        public Builder activeConnectionIdLimit(int v) {
            activeConnectionIdLimit = v;
            return this;
        }

        public Builder localCidLength(int v) {
            localCidLength = v;
            return this;
        }

        public Builder initialRtt(long v) {
            initialRtt = v;
            return this;
        }

        public Builder keyUpdateInterval(long v) {
            keyUpdateInterval = v;
            return this;
        }

        public Builder pacingLookahead(long v) {
            pacingLookahead = v;
            return this;
        }

        public Builder congestion(CongestionConfig v) {
            congestion = v;
            return this;
        }

        public Builder qlog(Function<byte[], QlogSink> v) {
            qlog = v;
            return this;
        }

        public Builder keyLog(KeyLogSink v) {
            keyLog = v;
            return this;
        }

        public Builder maxAckRatio(int v) {
            maxAckRatio = v;
            return this;
        }

        public Builder minAckDelay(long v) {
            minAckDelay = v;
            return this;
        }

        public ConnectionConfig build() {
            return new ConnectionConfig(tls, streams, idleTimeout, maxUdpPayloadSize, ackDelayExponent, maxAckDelay,
                    ackElicitingThreshold, activeConnectionIdLimit, localCidLength, initialRtt, keyUpdateInterval,
                    pacingLookahead, congestion, qlog, keyLog, ecn, versions, maxAckRatio, minAckDelay, preferredAddress,
                    usePreferredAddress);
        }
    }
}
