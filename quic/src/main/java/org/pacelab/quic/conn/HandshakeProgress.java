package org.pacelab.quic.conn;

import org.pacelab.quic.packet.EncryptionLevel;
import org.pacelab.quic.recovery.PacketNumberSpace;
import org.pacelab.quic.recovery.Recovery;
import org.pacelab.quic.stream.SendBuffer;

/**
 * How far the handshake has come and what that lets the connection drop: complete (RFC 9001 §4.1.1), confirmed
 * (§4.1.2), whether the peer validated our address (RFC 9002 §A.6), and the discarding of the Initial and Handshake
 * keys with their packet number space's recovery state (RFC 9001 §4.9; RFC 9002 §6.4). What recovery needs of it to
 * arm its timer is {@link #status()}. Like quinn's {@code discard_space}, ngtcp2's {@code conn_discard_pktns} and
 * quiche's {@code drop_epoch_state}, which keep this inside their connection.
 */
final class HandshakeProgress {
    private final boolean isClient;
    private final KeySchedule keys;
    private final PacketNumberSpace[] spaces;
    private final Recovery recovery;
    private final AmplificationLimit amplification;
    /** TLS's Initial CRYPTO data (RFC 9002 §A.6: a client with unacknowledged Initial data keeps its timer). */
    private final SendBuffer initialCrypto;

    private boolean complete;
    private boolean confirmed;
    private boolean peerValidatedOurAddress;
    /** A server's completion is its confirmation (RFC 9001 §4.1.2), taken at its next send. */
    private boolean confirmationDue;

    HandshakeProgress(boolean isClient, KeySchedule keys, PacketNumberSpace[] spaces, Recovery recovery,
                      AmplificationLimit amplification, SendBuffer initialCrypto) {
        this.isClient = isClient;
        this.keys = keys;
        this.spaces = spaces;
        this.recovery = recovery;
        this.amplification = amplification;
        this.initialCrypto = initialCrypto;
    }

    /** TLS completed the handshake (RFC 9001 §4.1.1); a server's is then confirmed at its next send (§4.1.2). */
    void onComplete() {
        complete = true;
        if (!isClient) {
            confirmationDue = true;
        }
    }

    /** Whether a server's completion waits to be confirmed ({@link #confirm}); it then no longer waits. */
    boolean takeConfirmationDue() {
        boolean due = confirmationDue;
        confirmationDue = false;
        return due;
    }

    /**
     * The handshake is confirmed (RFC 9001 §4.1.2: a server on completion, a client on HANDSHAKE_DONE): the peer has our
     * address validated and the Handshake keys are discarded (§4.9.2). Returns whether this call confirmed it.
     */
    boolean confirm(long now) {
        if (confirmed) {
            return false;
        }
        confirmed = true;
        peerValidatedOurAddress = true;
        discard(EncryptionLevel.HANDSHAKE, now);
        return true;
    }

    /** Client: an acknowledged Handshake packet shows that the server validated our address (RFC 9002 §A.6). */
    void onHandshakeAcked() {
        if (isClient) {
            peerValidatedOurAddress = true;
        }
    }

    /**
     * Server: a Handshake packet from the client proves it received our Initial (RFC 9000 §8.1: its address is
     * validated) and lets the Initial keys go (RFC 9001 §4.9.1).
     */
    void onHandshakePacketReceived(long now) {
        amplification.validate();
        discard(EncryptionLevel.INITIAL, now);
    }

    /** A packet of {@code level} was sent: a client discards the Initial keys with its first Handshake packet (RFC 9001 §4.9.1). */
    void onPacketSent(EncryptionLevel level, long now) {
        if (isClient && level == EncryptionLevel.HANDSHAKE) {
            discard(EncryptionLevel.INITIAL, now);
        }
    }

    /**
     * Discards a level's keys, its space's packets in flight and loss state (RFC 9002 §6.4) and the probes asked of it;
     * nothing when its keys are gone already.
     */
    void discard(EncryptionLevel level, long now) {
        if (!keys.hasTx(level) && !keys.hasRx(level)) {
            return;
        }
        keys.discard(level);
        recovery.discardSpace(level.space(), now);
        spaces[level.space().ordinal()].cancelProbes();
    }

    boolean complete() {
        return complete;
    }

    boolean confirmed() {
        return confirmed;
    }

    /** What recovery needs to know of the handshake to arm its timer (RFC 9002 §A.6, §A.8). */
    Recovery.HandshakeStatus status() {
        boolean peerCompletedValidation = !isClient || peerValidatedOurAddress || confirmed;
        boolean initialDataUnacked = keys.hasTx(EncryptionLevel.INITIAL)
                && initialCrypto.ackedOffset() < initialCrypto.writeOffset();
        return new Recovery.HandshakeStatus(isClient, keys.hasTx(EncryptionLevel.HANDSHAKE), confirmed,
                peerCompletedValidation, amplification.atLimit(), initialDataUnacked);
    }
}
