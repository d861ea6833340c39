package org.pacelab.quic.conn;

import org.pacelab.quic.crypto.CipherSuite;
import org.pacelab.quic.crypto.InitialSecrets;
import org.pacelab.quic.crypto.PacketKeys;
import org.pacelab.quic.crypto.VersionProtection;
import org.pacelab.quic.packet.EncryptionLevel;

/**
 * A connection's packet protection keys per encryption level and direction (RFC 9001 §5), including the
 * 1-RTT key phase and key updates (RFC 9001 §6): the current generation, the next one prepared for a
 * peer-initiated update, and the previous receive keys kept for reordered packets.
 */
public final class KeySchedule {
    private final boolean isClient;
    private final PacketKeys[] rx = new PacketKeys[4];
    private final PacketKeys[] tx = new PacketKeys[4];
    /** The version whose labels new keys are derived with (QUIC v2 after compatible negotiation, RFC 9369 §3.3). */
    private VersionProtection version = VersionProtection.V1;
    /** The Initial DCID (for Initial keys of another version) and the receive keys of the version switched from. */
    private byte[] initialDcid;
    private PacketKeys formerInitialRx;
    private VersionProtection formerVersion;

    // 1-RTT key phase state
    private int keyPhase;
    private long generation;
    private PacketKeys nextRx;
    private PacketKeys nextTx;
    private PacketKeys previousRx;
    /** When the previous receive keys may be dropped (3×PTO after the update, RFC 9001 §6.5). */
    private long previousRxDiscardTime = Long.MAX_VALUE;
    /** Packet number of the first packet sent with the current keys, or -1 before one was sent. */
    private long firstPnSentInPhase = -1;
    /** 1-RTT packets sent in the current key phase (for updates every N packets). */
    private long packetsSentInPhase;
    /** Whether a packet sent in the current phase was acknowledged (RFC 9001 §6.2: needed before updating again). */
    private boolean currentPhaseAcked = true;
    /** Lowest packet number received with the current phase (to tell old-phase reordering from updates). */
    private long lowestPnReceivedInPhase = Long.MAX_VALUE;
    /** 1-RTT packets decrypted since the last update (for an update interval that counts both directions). */
    private long packetsReceivedInPhase;

    public KeySchedule(boolean isClient) {
        this.isClient = isClient;
    }

    /** Installs Initial keys from the client's first Destination Connection ID (RFC 9001 §5.2) for the current version. */
    public void installInitial(byte[] dcid) {
        initialDcid = dcid.clone();
        set(EncryptionLevel.INITIAL, InitialSecrets.clientKeys(version, dcid), InitialSecrets.serverKeys(version, dcid));
    }

    /** The version new keys are derived for. */
    public VersionProtection version() {
        return version;
    }

    /**
     * Switches to another version's keys (RFC 9368 §4, compatible version negotiation): Initial keys of {@code v} from
     * the same DCID; Handshake and 1-RTT keys installed from now on use its labels. The Initial receive keys of the
     * version left are kept: the peer's packets may still come in it until it learns of the switch.
     */
    public void switchVersion(VersionProtection v) {
        if (v == version) {
            return;
        }
        formerInitialRx = rx[EncryptionLevel.INITIAL.ordinal()];
        formerVersion = version;
        version = v;
        if (initialDcid != null && tx[EncryptionLevel.INITIAL.ordinal()] != null) {
            set(EncryptionLevel.INITIAL, InitialSecrets.clientKeys(v, initialDcid), InitialSecrets.serverKeys(v, initialDcid));
        }
    }

    /** The Initial receive keys for a packet of {@code packetVersion}: the current ones, or the version switched from. */
    public PacketKeys initialRx(int packetVersion) {
        if (formerVersion != null && packetVersion == formerVersion.version()) {
            return rx[EncryptionLevel.INITIAL.ordinal()] == null ? null : formerInitialRx;
        }
        return rx[EncryptionLevel.INITIAL.ordinal()];
    }

    /**
     * Installs 0-RTT keys from the client_early_traffic_secret (RFC 9001 §5.1): the client sends with them, the server
     * receives with them; nothing travels the other way at this level.
     */
    public void installZeroRtt(CipherSuite suite, byte[] clientSecret) {
        PacketKeys k = PacketKeys.fromSecret(suite, clientSecret, version);
        int l = EncryptionLevel.ZERO_RTT.ordinal();
        if (isClient) {
            tx[l] = k;
        } else {
            rx[l] = k;
        }
    }

    /** Installs keys for a level from TLS traffic secrets, with the current version's labels. */
    public void install(EncryptionLevel level, CipherSuite suite, byte[] clientSecret, byte[] serverSecret) {
        set(level, PacketKeys.fromSecret(suite, clientSecret, version), PacketKeys.fromSecret(suite, serverSecret, version));
        if (level == EncryptionLevel.ONE_RTT) {
            nextRx = rx[level.ordinal()].nextGeneration();
            nextTx = tx[level.ordinal()].nextGeneration();
        }
    }

    private void set(EncryptionLevel level, PacketKeys client, PacketKeys server) {
        rx[level.ordinal()] = isClient ? server : client;
        tx[level.ordinal()] = isClient ? client : server;
    }

    public PacketKeys rx(EncryptionLevel level) { return rx[level.ordinal()]; }

    public PacketKeys tx(EncryptionLevel level) { return tx[level.ordinal()]; }

    public boolean hasRx(EncryptionLevel level) { return rx[level.ordinal()] != null; }

    public boolean hasTx(EncryptionLevel level) { return tx[level.ordinal()] != null; }

    /** Discards a level's keys (RFC 9001 §4.9). */
    public void discard(EncryptionLevel level) {
        rx[level.ordinal()] = null;
        tx[level.ordinal()] = null;
    }

    // ---- 1-RTT key phase ------------------------------------------------------------------------

    public int keyPhase() { return keyPhase; }

    public long generation() { return generation; }

    /**
     * The keys to try for a received 1-RTT packet with {@code phaseBit}: the current keys when the bit
     * matches; otherwise the previous keys for an old packet, or the next keys for a new update.
     */
    public PacketKeys rxFor(int phaseBit, long packetNumber) {
        if (phaseBit == keyPhase) {
            return rx[EncryptionLevel.ONE_RTT.ordinal()];
        }
        if (previousRx != null && packetNumber < lowestPnReceivedInPhase) {
            return previousRx;
        }
        return nextRx;
    }

    /** Whether the keys returned by {@link #rxFor} for this phase bit and number are the next generation. */
    public boolean isNextGeneration(int phaseBit, long packetNumber) {
        return phaseBit != keyPhase && !(previousRx != null && packetNumber < lowestPnReceivedInPhase);
    }

    /**
     * A 1-RTT packet with this phase bit decrypted (after {@link #update} if it started the next generation). Only a
     * packet of the current phase sets the lowest number received in it and counts toward the update interval: one
     * of the previous phase, reordered or sent before the peer followed our update and opened with the previous keys,
     * would otherwise lower it, and the peer's next old-phase packets (numbers above it) would be tried with the next
     * keys and dropped (RFC 9001 §6.5 tells the phases apart by the lowest number of the current phase). Under loss
     * with frequent updates that left a client dropping every server packet after its own update, both idling out.
     */
    public void onReceived(int phaseBit, long packetNumber) {
        if (phaseBit != keyPhase) {
            return;
        }
        lowestPnReceivedInPhase = Math.min(lowestPnReceivedInPhase, packetNumber);
        packetsReceivedInPhase++;
    }

    /** 1-RTT packets decrypted since the last key update (or since 1-RTT keys were installed). */
    public long packetsReceivedInPhase() {
        return packetsReceivedInPhase;
    }

    /** Whether we may initiate a key update now (RFC 9001 §6.1, §6.2). */
    public boolean canInitiateUpdate() {
        return nextTx != null && currentPhaseAcked && previousRx == null;
    }

    /**
     * Switches to the next key generation (initiated locally, or in response to the peer's update after
     * a packet with the next keys decrypted).
     *
     * @param discardPreviousAt when the old receive keys may be dropped
     */
    public void update(long discardPreviousAt) {
        int l = EncryptionLevel.ONE_RTT.ordinal();
        previousRx = rx[l];
        rx[l] = nextRx;
        tx[l] = nextTx;
        nextRx = rx[l].nextGeneration();
        nextTx = tx[l].nextGeneration();
        keyPhase ^= 1;
        generation++;
        previousRxDiscardTime = discardPreviousAt;
        firstPnSentInPhase = -1;
        packetsSentInPhase = 0;
        currentPhaseAcked = false;
        lowestPnReceivedInPhase = Long.MAX_VALUE;
        packetsReceivedInPhase = 0;
    }

    /** A 1-RTT packet was sent with the current keys. */
    public void onPacketSent(long packetNumber) {
        if (firstPnSentInPhase < 0) {
            firstPnSentInPhase = packetNumber;
        }
        packetsSentInPhase++;
    }

    /** 1-RTT packets sent with the current keys. */
    public long packetsSentInPhase() { return packetsSentInPhase; }

    /** The peer acknowledged 1-RTT packets up to {@code largestAcked}. */
    public void onAcked(long largestAcked) {
        if (firstPnSentInPhase >= 0 && largestAcked >= firstPnSentInPhase) {
            currentPhaseAcked = true;
        }
    }

    /** Drops the previous receive keys once their time passed; returns the next deadline. */
    public long onTimer(long now) {
        if (previousRx != null && now >= previousRxDiscardTime) {
            previousRx = null;
            previousRxDiscardTime = Long.MAX_VALUE;
        }
        return previousRxDiscardTime;
    }

    public long previousKeysDiscardTime() { return previousRxDiscardTime; }

    /** Replaces Initial keys after a Retry with the new Destination Connection ID (RFC 9001 §5.2). */
    public void resetInitial(byte[] newDcid) {
        installInitial(newDcid);
    }
}
