package org.pacelab.quic.conn;

import org.pacelab.quic.TransportParameters;

/**
 * The transport parameters this endpoint announces (RFC 9000 §18.2): our limits from the configuration, the connection
 * IDs that authenticate the handshake (§7.3), a server's stateless reset token (§10.3), version_information (RFC 9368
 * §3) and min_ack_delay (draft-ietf-quic-ack-frequency §3).
 */
final class LocalTransportParameters {
    private LocalTransportParameters() {}

    static TransportParameters client(ConnectionConfig config, int version, byte[] initialScid) {
        return common(config, version, initialScid).build();
    }

    /**
     * @param retryScid        the Source Connection ID of our Retry, or null without Retry
     * @param preferredAddress the preferred_address to offer (RFC 9000 §18.2: with the connection ID of sequence number
     *                         1), or null
     */
    static TransportParameters server(ConnectionConfig config, int version, byte[] initialScid, byte[] originalDcid,
                                      byte[] retryScid, byte[] statelessResetToken,
                                      TransportParameters.PreferredAddress preferredAddress) {
        var b = common(config, version, initialScid)
                .originalDestinationConnectionId(originalDcid)
                .statelessResetToken(statelessResetToken)
                .preferredAddress(preferredAddress);
        if (retryScid != null) {
            b.retrySourceConnectionId(retryScid);
        }
        return b.build();
    }

    private static TransportParameters.Builder common(ConnectionConfig config, int version, byte[] initialScid) {
        var limits = config.streams();
        return TransportParameters.builder()
                .maxIdleTimeout(config.idleTimeout() / 1_000_000L)
                .maxUdpPayloadSize(config.maxUdpPayloadSize())
                .initialMaxData(limits.initialMaxData())
                .initialMaxStreamDataBidiLocal(limits.initialMaxStreamData())
                .initialMaxStreamDataBidiRemote(limits.initialMaxStreamData())
                .initialMaxStreamDataUni(limits.initialMaxStreamData())
                .initialMaxStreamsBidi(limits.maxStreamsBidi())
                .initialMaxStreamsUni(limits.maxStreamsUni())
                .ackDelayExponent(config.ackDelayExponent())
                .maxAckDelay(config.maxAckDelay() / 1_000_000L)
                .activeConnectionIdLimit(config.activeConnectionIdLimit())
                .minAckDelay(config.minAckDelay() >= 0 ? config.minAckDelay() / 1000 : -1)
                // RFC 9000 §18.2: no active migration to other addresses; a client may still move to our preferred
                // address (§9.6), and a NAT rebinding is followed (§9.3)
                .disableActiveMigration(true)
                .initialSourceConnectionId(initialScid)
                // RFC 9368 §3: the version in use and, in preference order, the versions spoken
                .versionInformation(new TransportParameters.VersionInformation(version,
                        config.versions().stream().mapToInt(Integer::intValue).toArray()));
    }
}
