package org.pacelab.quic.cc;

import java.util.HashSet;
import java.util.Set;

import org.pacelab.quic.packet.PacketSpace;

/**
 * The packets declared lost in one loss-recovery episode, to recognise a spurious episode: one in which
 * every packet declared lost was acknowledged after all (RFC 9438 §4.9.2, draft-ietf-ccwg-bbr
 * §"Updating the Model Upon Detecting a Spurious Loss Recovery"). A QUIC sender knows a loss was spurious
 * when the packet it declared lost is acknowledged (RFC 9438 §4.9.2).
 */
final class LossEpisode {
    /** A packet, by its space and number (numbers never repeat within a space). */
    private record Id(PacketSpace space, long packetNumber) {}

    private final Set<Id> outstanding = new HashSet<>();
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
        if (open && outstanding.add(new Id(p.space(), p.packetNumber()))) {
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
        if (!open || !outstanding.remove(new Id(p.space(), p.packetNumber()))) {
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
