package org.pacelab.net.dc;

import org.pacelab.net.spec.DirectionSpec;
import org.pacelab.net.spec.Units;

/**
 * A dual-connectivity link as the user wrote it: the two downlink paths, the single uplink, the split and the
 * reordering receiver. See {@link DcSpecParser} for the grammar and defaults.
 *
 * @param a                 path a (server to client), without a wire model
 * @param b                 path b, likewise
 * @param up                the uplink (client to server), one path
 * @param split             how dual-connected flows are split
 * @param reordering        the client-side reordering receiver
 * @param wireBps           the server's access link before the splitter (the tap sits after it); 0 = off
 * @param wireOverheadBytes per-frame overhead on that wire
 */
public record DcSpec(DirectionSpec a, DirectionSpec b, DirectionSpec up, SplitPolicy split, ReorderingConfig reordering,
                     long wireBps, int wireOverheadBytes) {

    public DirectionSpec path(DcPath p) { return p == DcPath.A ? a : b; }

    /** The splitter, receiver and wire fields in the {@code --dc} grammar (the paths are formatted on their own). */
    public String format() {
        StringBuilder s = new StringBuilder(split.format());
        s.append(" t-reordering=").append(Units.formatDuration(reordering.tReorderingNanos()));
        if (reordering.outOfOrderDelivery()) s.append(" reordering=off");
        if (reordering.holdLimit()) s.append(" reordering=").append(DcSpecParser.HOLD_LIMIT);
        if (reordering.singlePathInOrder()) s.append(" single-path=").append(DcSpecParser.SINGLE_PATH_IN_ORDER);
        s.append(" sn=").append(reordering.snBits());
        s.append(" wire=").append(wireBps > 0 ? Units.formatRate(wireBps) : "off");
        if (wireOverheadBytes != 38) s.append(" wire-overhead=").append(wireOverheadBytes).append('b');
        return s.toString();
    }
}
