package org.pacelab.quic.cc;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

import org.pacelab.quic.recovery.SentPacket;

/**
 * The packets declared lost in one loss-recovery episode, to recognise a spurious episode: one in which
 * every packet declared lost was acknowledged after all (RFC 9438 §4.9.2, draft-ietf-ccwg-bbr
 * §"Updating the Model Upon Detecting a Spurious Loss Recovery"). A QUIC sender knows a loss was spurious
 * when the packet it declared lost is acknowledged (RFC 9438 §4.9.2).
 */
final class LossEpisode {
    private final Set<SentPacket> outstanding = Collections.newSetFromMap(new IdentityHashMap<>());
    private boolean open;
    private int lostCount;

    /** A new episode starts (at a congestion event); earlier losses no longer belong to it. */
    void start() {
        outstanding.clear();
        open = true;
        lostCount = 0;
    }

    /** A packet was declared lost while the episode is open. */
    void onLost(PacketInfo p) {
        if (open && outstanding.add(p.packet())) {
            lostCount++;
        }
    }

    /**
     * A packet declared lost was acknowledged.
     *
     * @return true when this was the last outstanding loss of the episode: the whole episode was spurious
     *         (the episode is closed then, so this returns true once)
     */
    boolean onSpurious(PacketInfo p) {
        if (!open || !outstanding.remove(p.packet())) {
            return false;
        }
        if (outstanding.isEmpty()) {
            open = false;
            return true;
        }
        return false;
    }

    /** Ends the episode without undo (e.g. after the state was restored another way). */
    void close() {
        outstanding.clear();
        open = false;
    }

    boolean isOpen() { return open; }

    int lostCount() { return lostCount; }
}
