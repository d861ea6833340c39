package org.pacelab.quic.qlog;

import java.util.List;

import org.pacelab.quic.frame.Frame;
import org.pacelab.quic.packet.PacketType;

/**
 * Receives a connection's qlog events (draft-ietf-quic-qlog-quic-events, the 0.3 event names qvis reads).
 * Times are the connection's nanosecond clock; a writer converts them.
 */
public interface QlogSink {
    QlogSink NONE = new QlogSink() {};

    default boolean enabled() { return false; }

    default void connectionStarted(long now, String localAddress, String remoteAddress, byte[] scid, byte[] dcid) {}

    default void parametersSet(long now, boolean local, java.util.Map<String, Object> parameters) {}

    /**
     * A packet left the connection. {@code intendedSendTime} is the pacer's release time.
     */
    default void packetSent(long now, PacketType type, long packetNumber, int length, long intendedSendTime,
                            List<Frame> frames) {}

    default void packetReceived(long now, PacketType type, long packetNumber, int length, List<Frame> frames) {}

    default void packetDropped(long now, PacketType type, int length, String trigger) {}

    default void packetLost(long now, PacketType type, long packetNumber, String trigger) {}

    default void metricsUpdated(long now, long minRtt, long smoothedRtt, long latestRtt, long rttVariance,
                                long congestionWindow, long bytesInFlight, long ssthresh, long pacingRateBitsPerSecond) {}

    default void congestionStateUpdated(long now, String oldState, String newState) {}

    default void keyUpdated(long now, String keyType, long generation, String trigger) {}

    /**
     * The connection's migration state changed (draft-ietf-quic-qlog-quic-events, {@code quic:migration_state_updated}):
     * {@code state} is one of probing_started, probing_abandoned, probing_successful, migration_complete; {@code path}
     * the path it concerns, {@code reason} why (may be empty).
     */
    default void migrationStateUpdated(long now, String state, String path, String reason) {}

    default void connectionClosed(long now, boolean local, long errorCode, boolean application, String reason) {}

    /** Flushes and releases the underlying output. */
    default void close() {}
}
