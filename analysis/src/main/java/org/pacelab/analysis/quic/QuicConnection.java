package org.pacelab.analysis.quic;

import java.util.HexFormat;

import org.pacelab.analysis.packet.Endpoint;
import org.pacelab.quic.crypto.PacketKeys;
import org.pacelab.quic.packet.PacketSpace;

/**
 * What the dissector knows about one QUIC connection: connection IDs learned from the handshake
 * (RFC 9000 §7.2), keys, the largest packet number per direction and space, and the TLS facts read from the
 * Initial packets.
 */
public final class QuicConnection {
    static final int CLIENT = 0;
    static final int SERVER = 1;

    final Endpoint client;
    final long firstSeenNs;
    byte[] originalDcid;
    /** DCID of the client's current Initial packets (the original one, or the Retry's SCID). */
    byte[] initialDcid;
    /** The client's source connection ID: servers address short headers with it. */
    byte[] clientCid;
    /** The server's source connection ID: clients address short headers with it. */
    byte[] serverCid;
    byte[] retryScid;
    PacketKeys initialClient;
    PacketKeys initialServer;
    final long[][] largest = {{-1, -1, -1}, {-1, -1, -1}};
    final CryptoStreamPrefix clientHello = new CryptoStreamPrefix(512);
    final CryptoStreamPrefix serverHello = new CryptoStreamPrefix(512);
    byte[] clientRandom;
    int cipherSuiteCode = -1;
    /** Keys derived from the key log, once client random (or the log's only connection) is known. */
    TrafficKeys traffic;
    int trafficSuiteCode = -1;
    /** Why the key log gave no keys, remembered until the client random changes. */
    String trafficProblem;
    byte[] problemClientRandom;

    QuicConnection(Endpoint client, long firstSeenNs) {
        this.client = client;
        this.firstSeenNs = firstSeenNs;
    }

    public Endpoint client() {
        return client;
    }

    /** The client's original destination connection ID in lower-case hex ("" when not seen). */
    public String originalDcidHex() {
        return originalDcid == null ? "" : HexFormat.of().formatHex(originalDcid);
    }

    /** The server's connection ID in lower-case hex ("" when not seen). */
    public String serverCidHex() {
        return serverCid == null ? "" : HexFormat.of().formatHex(serverCid);
    }

    /** The TLS cipher suite code from the ServerHello, or -1. */
    public int cipherSuiteCode() {
        return cipherSuiteCode;
    }

    /** The cipher suite's IANA name (e.g. TLS_AES_128_GCM_SHA256), or null when the ServerHello was not read. */
    public String cipherSuiteName() {
        return cipherSuiteCode < 0 ? null : KeyCandidates.suiteName(cipherSuiteCode);
    }

    long largest(int direction, PacketSpace space) {
        return largest[direction][space.ordinal()];
    }

    void observe(int direction, PacketSpace space, long pn) {
        int s = space.ordinal();
        if (pn > largest[direction][s]) {
            largest[direction][s] = pn;
        }
    }
}
