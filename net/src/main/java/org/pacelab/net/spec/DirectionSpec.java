package org.pacelab.net.spec;

import java.util.List;
import org.pacelab.net.link.Jitter;

/**
 * One direction of a link as the user wrote it (a preset plus overrides), before traces are loaded and BDP
 * sizes resolved. See {@link LinkSpecParser} for the grammar.
 *
 * @param rateBps          fixed rate in bits/s; 0 = no rate limit (or the trace decides)
 * @param burstBytes       token-bucket depth (tbf burst); 0 = a serializing link
 * @param trace            Mahimahi trace file, or null
 * @param traceRepeat      whether the trace repeats
 * @param overheadBytes    bytes the rate limiter charges per packet on top of its IP size
 * @param queue            drop-tail limit
 * @param shared           whether the delay line's packets count against the queue limit
 * @param delayNs          constant one-way delay
 * @param jitter           delay variation
 * @param reorder          whether jitter may reorder
 * @param loss             random loss
 * @param corrupt          corruption
 * @param duplicate        duplication probability
 * @param wireBps          access-link wire rate; 0 = off
 * @param wireOverheadBytes per-frame overhead on the wire
 * @param rttNs            RTT used for BDP sizes; 0 = the sum of both directions' delays
 * @param blackhole        scheduled outages
 * @param drops            1-based positions of packets to drop (empty: none)
 */
public record DirectionSpec(long rateBps, long burstBytes, String trace, boolean traceRepeat, int overheadBytes,
                            QueueSpec queue, boolean shared, long delayNs, Jitter jitter, boolean reorder,
                            LossSpec loss, CorruptSpec corrupt, double duplicate, long wireBps, int wireOverheadBytes,
                            long rttNs, BlackholeSpec blackhole, List<Long> drops) {
    public DirectionSpec {
        drops = List.copyOf(drops);
    }

    /** No shaping at all. */
    public static final DirectionSpec UNSHAPED = new DirectionSpec(0, 0, null, true, 0, QueueSpec.UNLIMITED, false,
            0, new Jitter.None(), false, LossSpec.NONE, CorruptSpec.NONE, 0, 0, 38, 0, BlackholeSpec.NONE, List.of());

    public Builder toBuilder() { return new Builder(this); }

    /** The spec written back in the grammar {@link LinkSpecParser} reads. */
    public String format() {
        StringBuilder b = new StringBuilder();
        if (trace != null) {
            b.append("trace=").append(trace);
            if (!traceRepeat) b.append(" trace-repeat=off");
        } else if (rateBps > 0) {
            b.append("rate=").append(Units.formatRate(rateBps));
            if (burstBytes > 0) b.append(" burst=").append(burstBytes).append('b');
        } else {
            b.append("rate=unlimited");
        }
        if (overheadBytes != 0) b.append(" overhead=").append(overheadBytes).append('b');
        b.append(" queue=").append(queue);
        if (shared) b.append(" shared=on");
        b.append(" delay=").append(Units.formatDuration(delayNs));
        if (!(jitter instanceof Jitter.None)) b.append(" jitter=").append(formatJitter(jitter));
        if (reorder) b.append(" reorder=on");
        if (loss.kind() != LossSpec.Kind.NONE) b.append(" loss=").append(loss);
        if (corrupt.probability() > 0) b.append(" corrupt=").append(corrupt);
        if (duplicate > 0) b.append(" duplicate=").append(duplicate * 100).append('%');
        b.append(" wire=").append(wireBps > 0 ? Units.formatRate(wireBps) : "off");
        if (wireOverheadBytes != 38) b.append(" wire-overhead=").append(wireOverheadBytes).append('b');
        if (rttNs > 0) b.append(" rtt=").append(Units.formatDuration(rttNs));
        if (blackhole.closedNs() > 0 && blackhole.repeat() > 0) b.append(" blackhole=").append(blackhole);
        if (!drops.isEmpty()) {
            b.append(" drops=").append(String.join(",", drops.stream().map(String::valueOf).toList()));
        }
        return b.toString();
    }

    private static String formatJitter(Jitter j) {
        return switch (j) {
            case Jitter.Normal n -> n.cov() > 0 ? "normal:cov=" + n.cov() : "normal:sd=" + Units.formatDuration(n.sdNanos());
            case Jitter.Uniform u -> "uniform:" + Units.formatDuration(u.halfWidthNanos());
            case Jitter.None none -> "none";
        };
    }

    /** Mutable copy used while applying overrides. */
    public static final class Builder {
        long rateBps, burstBytes; String trace; boolean traceRepeat; int overheadBytes; QueueSpec queue;
        boolean shared; long delayNs; Jitter jitter; boolean reorder; LossSpec loss; CorruptSpec corrupt; double duplicate;
        long wireBps; int wireOverheadBytes; long rttNs; BlackholeSpec blackhole; List<Long> drops;

        Builder(DirectionSpec s) {
            rateBps = s.rateBps; burstBytes = s.burstBytes; trace = s.trace; traceRepeat = s.traceRepeat;
            overheadBytes = s.overheadBytes; queue = s.queue; shared = s.shared; delayNs = s.delayNs; jitter = s.jitter;
            reorder = s.reorder; loss = s.loss; corrupt = s.corrupt; duplicate = s.duplicate; wireBps = s.wireBps;
            wireOverheadBytes = s.wireOverheadBytes; rttNs = s.rttNs; blackhole = s.blackhole; drops = s.drops;
        }

        public DirectionSpec build() {
            return new DirectionSpec(rateBps, burstBytes, trace, traceRepeat, overheadBytes, queue, shared, delayNs,
                    jitter, reorder, loss, corrupt, duplicate, wireBps, wireOverheadBytes, rttNs, blackhole, drops);
        }
    }
}
