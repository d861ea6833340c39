package org.pacelab.quic.conn;

import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.Supplier;

import org.pacelab.quic.cc.CongestionController;
import org.pacelab.quic.pacing.Pacer;
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
 * @param keyUpdateInterval       initiate a key update after this many 1-RTT packets sent (0 = never)
 * @param pacingLookahead         how far ahead of {@code now} a packet may be released with a future intended
 *                                send time (for SO_TXTIME-style strategies; 0 = never ahead)
 * @param congestionController    creates the controller, given the max datagram size
 * @param pacer                   creates the pacer
 * @param qlog                    creates the qlog sink for a connection, given its original DCID
 * @param keyLog                  receives TLS secrets (SSLKEYLOGFILE)
 */
public record ConnectionConfig(TlsConfig tls, StreamLimits streams, long idleTimeout, int maxUdpPayloadSize,
                               int ackDelayExponent, long maxAckDelay, int ackElicitingThreshold,
                               int activeConnectionIdLimit, int localCidLength, long initialRtt, long keyUpdateInterval,
                               long pacingLookahead, IntFunction<CongestionController> congestionController,
                               Supplier<Pacer> pacer, Function<byte[], QlogSink> qlog, KeyLogSink keyLog) {

    /** RFC 9000 §14: the smallest datagram an Initial may travel in. */
    public static final int MIN_INITIAL_SIZE = 1200;

    public ConnectionConfig {
        if (maxUdpPayloadSize < MIN_INITIAL_SIZE) {
            throw new IllegalArgumentException("max UDP payload size must be at least 1200 bytes, not " + maxUdpPayloadSize);
        }
        if (localCidLength < 1 || localCidLength > 20) {
            throw new IllegalArgumentException("connection ID length must be 1..20, not " + localCidLength);
        }
        if (activeConnectionIdLimit < 2) {
            throw new IllegalArgumentException("active_connection_id_limit must be at least 2");
        }
    }

    /** Defaults: 30 s idle timeout, 1452-byte datagrams, RFC ack settings. */
    public static ConnectionConfig defaults(TlsConfig tls, IntFunction<CongestionController> cc, Supplier<Pacer> pacer) {
        return new ConnectionConfig(tls, StreamLimits.defaults(), 30_000_000_000L, 1452, 3, 25_000_000L, 2, 4, 8,
                333_000_000L, 0, 0, cc, pacer, odcid -> QlogSink.NONE, KeyLogSink.NONE);
    }

    public ConnectionConfig withTls(TlsConfig t) {
        return new ConnectionConfig(t, streams, idleTimeout, maxUdpPayloadSize, ackDelayExponent, maxAckDelay,
                ackElicitingThreshold, activeConnectionIdLimit, localCidLength, initialRtt, keyUpdateInterval,
                pacingLookahead, congestionController, pacer, qlog, keyLog);
    }

    public ConnectionConfig withStreams(StreamLimits s) {
        return new ConnectionConfig(tls, s, idleTimeout, maxUdpPayloadSize, ackDelayExponent, maxAckDelay,
                ackElicitingThreshold, activeConnectionIdLimit, localCidLength, initialRtt, keyUpdateInterval,
                pacingLookahead, congestionController, pacer, qlog, keyLog);
    }

    public ConnectionConfig withIdleTimeout(long t) {
        return new ConnectionConfig(tls, streams, t, maxUdpPayloadSize, ackDelayExponent, maxAckDelay,
                ackElicitingThreshold, activeConnectionIdLimit, localCidLength, initialRtt, keyUpdateInterval,
                pacingLookahead, congestionController, pacer, qlog, keyLog);
    }

    public ConnectionConfig withMaxUdpPayloadSize(int size) {
        return new ConnectionConfig(tls, streams, idleTimeout, size, ackDelayExponent, maxAckDelay,
                ackElicitingThreshold, activeConnectionIdLimit, localCidLength, initialRtt, keyUpdateInterval,
                pacingLookahead, congestionController, pacer, qlog, keyLog);
    }

    public ConnectionConfig withKeyUpdateInterval(long packets) {
        return new ConnectionConfig(tls, streams, idleTimeout, maxUdpPayloadSize, ackDelayExponent, maxAckDelay,
                ackElicitingThreshold, activeConnectionIdLimit, localCidLength, initialRtt, packets,
                pacingLookahead, congestionController, pacer, qlog, keyLog);
    }

    public ConnectionConfig withPacingLookahead(long nanos) {
        return new ConnectionConfig(tls, streams, idleTimeout, maxUdpPayloadSize, ackDelayExponent, maxAckDelay,
                ackElicitingThreshold, activeConnectionIdLimit, localCidLength, initialRtt, keyUpdateInterval,
                nanos, congestionController, pacer, qlog, keyLog);
    }

    public ConnectionConfig withCongestion(IntFunction<CongestionController> cc, Supplier<Pacer> p) {
        return new ConnectionConfig(tls, streams, idleTimeout, maxUdpPayloadSize, ackDelayExponent, maxAckDelay,
                ackElicitingThreshold, activeConnectionIdLimit, localCidLength, initialRtt, keyUpdateInterval,
                pacingLookahead, cc, p, qlog, keyLog);
    }

    public ConnectionConfig withQlog(Function<byte[], QlogSink> q) {
        return new ConnectionConfig(tls, streams, idleTimeout, maxUdpPayloadSize, ackDelayExponent, maxAckDelay,
                ackElicitingThreshold, activeConnectionIdLimit, localCidLength, initialRtt, keyUpdateInterval,
                pacingLookahead, congestionController, pacer, q, keyLog);
    }

    public ConnectionConfig withKeyLog(KeyLogSink k) {
        return new ConnectionConfig(tls, streams, idleTimeout, maxUdpPayloadSize, ackDelayExponent, maxAckDelay,
                ackElicitingThreshold, activeConnectionIdLimit, localCidLength, initialRtt, keyUpdateInterval,
                pacingLookahead, congestionController, pacer, qlog, k);
    }
}
