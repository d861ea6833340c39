package org.pacelab.net.link;

import java.util.Arrays;

/**
 * Drops the packets at given positions (1 = the first packet the direction carries), as the QUIC Interop Runner's
 * {@code droplist} scenario does ({@code --drops_to_client}, {@code --drops_to_server}; its amplification-limit
 * test drops the client's packets 2 to 7). Counts packets, so each direction has its own instance.
 */
public final class DropList {
    /** Drops nothing. */
    public static final DropList NONE = new DropList(new long[0]);

    private final long[] positions;
    private long seen;

    /** @param positions 1-based packet positions to drop */
    public DropList(long[] positions) {
        this.positions = positions.clone();
        Arrays.sort(this.positions);
        if (this.positions.length > 0 && this.positions[0] < 1) throw new IllegalArgumentException("drop positions start at 1");
    }

    public boolean active() { return positions.length > 0; }

    /** Counts the next packet; true when its position is listed. */
    boolean drops() {
        if (positions.length == 0) return false;
        seen++;
        return Arrays.binarySearch(positions, seen) >= 0;
    }

    @Override
    public String toString() {
        return "drop " + Arrays.toString(positions);
    }
}
