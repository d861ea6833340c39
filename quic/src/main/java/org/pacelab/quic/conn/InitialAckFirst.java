package org.pacelab.quic.conn;

import java.util.ArrayList;
import java.util.List;

import org.pacelab.quic.QuicException;
import org.pacelab.quic.frame.CryptoFrame;
import org.pacelab.quic.packet.EncryptionLevel;

/**
 * Server: the client's first Initial is acknowledged before its CRYPTO data goes to TLS. RFC 9000 §13.2.1 asks that
 * ack-eliciting Initial packets be acknowledged immediately, but the ClientHello's processing — key exchange, the
 * certificate's signature, on a cold or loaded host tens to hundreds of milliseconds — would otherwise come between
 * the packet's arrival and the packet that acknowledges it, and the client's first RTT sample, from which its
 * handshake PTO is three times (RFC 9002 §5.3, §6.2.1), would include it. So the CRYPTO frames of the first datagram
 * (and of any that arrive before the acknowledgement leaves) are held here: the connection's next {@code send} finds
 * only the ACK to send, an ACK-only Initial (not ack-eliciting, so not padded, RFC 9000 §14.1; counted against the
 * anti-amplification limit like every datagram, §8.1), and the held data becomes due to TLS once that packet is built
 * ({@link #onAckSent}; a send that builds no ACK changes nothing) — through
 * {@link #deadline()}, a timer the runtime serves after it has handed that datagram to the socket. RFC 9002 §6.2.1
 * foresees this order (the client keeps its PTO backoff on acknowledgements in Initial packets because "a server might
 * take longer to respond to packets during the handshake"). 0-RTT packets that come with the ClientHello wait for the
 * keys it gives in {@link PacketsAwaitingKeys} and are processed right after the TLS step; should more come than that
 * buffer holds (RFC 9001 §4.1.4; a client with a large initial window), the held data goes to TLS at once instead of a
 * packet being dropped, and the ACK leaves with the flight. Once, at the start of a connection: later CRYPTO data goes
 * to TLS as it arrives. Not when the server prefers another version than the client's Initial's: the ClientHello's
 * version_information may then switch it (RFC 9368 §4), and an ACK in the Original Version would come first.
 */
final class InitialAckFirst {

    /** Where held CRYPTO data goes when it is due. */
    @FunctionalInterface
    interface Tls {
        void receive(EncryptionLevel level, CryptoFrame frame) throws QuicException;
    }

    private record Held(EncryptionLevel level, CryptoFrame frame) {}

    private enum Phase { HOLDING, DUE, DONE }

    private Phase phase;
    private final List<Held> held = new ArrayList<>(2);
    private long dueAt = Long.MAX_VALUE;

    /**
     * {@code ackFirst}: a server whose first packet's version cannot change (a client, and a server that compatible version
     * negotiation may move to another version than the client's Initial, RFC 9368 §4, hand CRYPTO data to TLS at once).
     */
    InitialAckFirst(boolean ackFirst) {
        this.phase = ackFirst ? Phase.HOLDING : Phase.DONE;
    }

    /** Keeps CRYPTO data of {@code level} for later when it must wait for the acknowledgement; returns whether it did. */
    boolean hold(EncryptionLevel level, CryptoFrame frame) {
        if (phase == Phase.DONE) {
            return false;
        }
        held.add(new Held(level, frame));
        return true;
    }

    /**
     * The connection built a datagram at {@code now} with an Initial packet carrying an ACK frame, which acknowledges
     * every Initial packet received so far, those of the held data too: the held data is due to TLS from now on (at the
     * runtime's next timer turn, after this datagram has left). Only then — a send that built nothing (no room in the
     * caller's buffer or under the anti-amplification limit, RFC 9000 §8.1) or only a CONNECTION_CLOSE has not
     * acknowledged anything, and the held data waits for the send that does.
     */
    void onAckSent(long now) {
        if (phase == Phase.HOLDING && !held.isEmpty()) {
            phase = Phase.DUE;
            dueAt = now;
        }
    }

    /** When the held data is due to TLS ({@link #release}), or {@link Long#MAX_VALUE}. */
    long deadline() {
        return phase == Phase.DUE ? dueAt : Long.MAX_VALUE;
    }

    /** Whether CRYPTO data waits here. */
    boolean holding() {
        return !held.isEmpty();
    }

    /** Hands the held data to TLS in the order it arrived; from now on nothing is held. */
    void release(Tls tls) throws QuicException {
        phase = Phase.DONE;
        dueAt = Long.MAX_VALUE;
        List<Held> due = new ArrayList<>(held);
        held.clear();
        for (Held h : due) {
            tls.receive(h.level(), h.frame());
        }
    }
}
