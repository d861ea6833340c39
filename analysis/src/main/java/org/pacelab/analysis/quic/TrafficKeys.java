package org.pacelab.analysis.quic;

import java.util.Map;

/** Handshake, 0-RTT and 1-RTT header-protection keys of a connection, from its key log entry (RFC 9001 §5.1). */
final class TrafficKeys {
    final KeyCandidates early;
    final KeyCandidates[] handshake = new KeyCandidates[2];
    final KeyCandidates[] application = new KeyCandidates[2];

    TrafficKeys(Map<String, byte[]> secrets, int suiteCode) {
        early = KeyCandidates.fromLog(secrets, KeyLog.CLIENT_EARLY, -1);
        handshake[QuicConnection.CLIENT] = KeyCandidates.fromLog(secrets, KeyLog.CLIENT_HANDSHAKE, suiteCode);
        handshake[QuicConnection.SERVER] = KeyCandidates.fromLog(secrets, KeyLog.SERVER_HANDSHAKE, suiteCode);
        // Header protection keys do not change on key update (RFC 9001 §6.1), so generation 0 serves all phases.
        application[QuicConnection.CLIENT] = KeyCandidates.fromLog(secrets, KeyLog.CLIENT_TRAFFIC_0, suiteCode);
        application[QuicConnection.SERVER] = KeyCandidates.fromLog(secrets, KeyLog.SERVER_TRAFFIC_0, suiteCode);
    }
}
