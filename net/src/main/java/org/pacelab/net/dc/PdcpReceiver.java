package org.pacelab.net.dc;

import java.util.ArrayDeque;
import java.util.Map;
import java.util.TreeMap;
import org.pacelab.net.link.DropCause;
import org.pacelab.net.link.Packet;

/**
 * The receiving side of a PDCP entity as far as reordering goes: 3GPP TS 38.323 §5.2.2 (receive operation), with
 * the state variables RX_NEXT, RX_DELIV, RX_REORD (§7.1), the constant Window_Size (§7.2) and the timer
 * t-Reordering (§7.3). Ciphering, integrity, header compression and status reports are not modelled. Clock-free:
 * the caller passes the time and calls {@link #expire} when {@link #timerExpiry()} is due.
 *
 * <p>COUNT values are kept as 64-bit numbers: the HFN never wraps, where a real bearer would be re-keyed before its
 * 32-bit COUNT runs out (TS 38.331 §5.3.1.2). SN wrap-around is handled exactly as §5.2.2.1 says, by deriving the
 * HFN of a received PDU from HFN(RX_DELIV). The one case where that derivation gives HFN(RX_DELIV) − 1 while
 * RX_DELIV is still in HFN 0 (an SN that would belong before COUNT 0) is treated as below RX_DELIV, i.e. discarded.
 *
 * <p>With {@link ReorderingConfig#holdLimit()} the timer is not §5.2.2's: it runs whenever packets are held and
 * expires when the packet held longest has waited t-Reordering; at expiry RX_REORD is set just above the highest
 * COUNT held that long, and the release is §5.2.2.2's (everything stored below RX_REORD, then consecutive COUNTs from
 * it). So no packet waits longer than t-Reordering, where §5.2.2 lets one behind two gaps wait up to twice as long.
 */
public final class PdcpReceiver {
    /** Where the receiver's results go; called synchronously, in COUNT order for deliveries. */
    public interface Output {
        /** The packet is handed to the client; it reached the receiver at {@code arrivedAt}. */
        void deliver(Packet packet, int path, long arrivedAt, long time);

        /** The packet was stored out of order; {@code heldNow} packets are held after it. */
        void hold(Packet packet, int path, long time, int heldNow);

        /** The packet was discarded ({@link DropCause#DUPLICATE} or {@link DropCause#OUTDATED}). */
        void discard(Packet packet, int path, long time, DropCause cause);

        /** t-Reordering expired; RX_REORD was {@code rxReord}; {@code heldNow} packets are held before the release. */
        void timerExpired(long time, long rxReord, int heldNow);
    }

    private record Stored(Packet packet, int path, long arrivedAt, boolean delivered) { }

    private final ReorderingConfig config;
    private final int snBits;
    private final long snMask;
    private final long window;
    /** Reception buffer: stored COUNTs, all in [RX_DELIV, RX_DELIV + Window_Size); memory follows what is held. */
    private final TreeMap<Long, Stored> buffer = new TreeMap<>();
    /** With a hold limit: the COUNTs held, in order of arrival (entries already released are dropped lazily). */
    private final ArrayDeque<long[]> heldByArrival = new ArrayDeque<>();
    /**
     * COUNT ranges [start, end) that t-Reordering gave up on without receiving them, within a window below RX_DELIV:
     * a PDU below RX_DELIV in one of them is outdated, any other is a duplicate (it was received before).
     */
    private final TreeMap<Long, Long> skipped = new TreeMap<>();
    private final ReorderingStats stats = new ReorderingStats();
    private long rxNext, rxDeliv, rxReord;
    private long timerExpiry = Long.MAX_VALUE;
    private int held;

    public PdcpReceiver(ReorderingConfig config) { this(config, 0); }

    /** A receiver whose RX_NEXT and RX_DELIV start at {@code initialCount} (0 in TS 38.323 §7.1). */
    public PdcpReceiver(ReorderingConfig config, long initialCount) {
        if (initialCount < 0) throw new IllegalArgumentException("COUNT must not be negative");
        this.config = config;
        this.snBits = config.snBits();
        this.snMask = (1L << snBits) - 1;
        this.window = config.windowSize();
        this.rxNext = initialCount;
        this.rxDeliv = initialCount;
    }

    public ReorderingConfig config() { return config; }

    public ReorderingStats stats() { return stats; }

    public long rxNext() { return rxNext; }

    public long rxDeliv() { return rxDeliv; }

    public long rxReord() { return rxReord; }

    /** When t-Reordering expires, or {@link Long#MAX_VALUE} when it is not running. */
    public long timerExpiry() { return timerExpiry; }

    public boolean timerRunning() { return timerExpiry != Long.MAX_VALUE; }

    /** Packets stored and not yet delivered. */
    public int heldPackets() { return held; }

    /** The COUNT a PDU with this SN is given now (TS 38.323 §5.2.2.1); −1 for an SN from before COUNT 0. */
    public long countOf(long sn) {
        long snDeliv = rxDeliv & snMask;
        long hfnDeliv = rxDeliv >>> snBits;
        long hfn;
        if (sn < snDeliv - window) {
            hfn = hfnDeliv + 1;
        } else if (sn >= snDeliv + window) {
            hfn = hfnDeliv - 1;
        } else {
            hfn = hfnDeliv;
        }
        return hfn < 0 ? -1 : (hfn << snBits) | sn;
    }

    /** A PDCP Data PDU with sequence number {@code sn} arrives from a lower layer (path) at {@code now}. */
    public void receive(long sn, Packet packet, int path, long now, Output out) {
        if (sn < 0 || sn > snMask) throw new IllegalArgumentException("SN " + sn + " does not fit " + snBits + " bits");
        stats.received++;
        long count = countOf(sn);
        // §5.2.2.1: discard if RCVD_COUNT < RX_DELIV or the PDU with COUNT = RCVD_COUNT has been received before
        if (count < rxDeliv) {
            boolean duplicate = count >= 0 && !wasSkipped(count);
            if (duplicate) stats.duplicates++; else stats.outdated++;
            out.discard(packet, path, now, duplicate ? DropCause.DUPLICATE : DropCause.OUTDATED);
            return;
        }
        if (buffer.containsKey(count)) {
            stats.duplicates++;
            out.discard(packet, path, now, DropCause.DUPLICATE);
            return;
        }
        // store the resulting PDCP SDU in the reception buffer
        boolean outOfOrder = config.outOfOrderDelivery();
        buffer.put(count, new Stored(packet, path, now, outOfOrder));
        if (count >= rxNext) rxNext = count + 1;
        if (outOfOrder) {
            stats.deliveredAtOnce++;
            out.deliver(packet, path, now, now);
        }
        if (count == rxDeliv) {
            // deliver all stored SDUs with consecutive COUNTs from RX_DELIV; RX_DELIV = first one not delivered
            long c = rxDeliv;
            for (Stored s; (s = take(c)) != null; c++) {
                if (s.delivered()) continue;
                if (c == count) {
                    stats.deliveredAtOnce++;
                    out.deliver(s.packet(), s.path(), s.arrivedAt(), now);
                } else {
                    release(s, now, false, out);
                }
            }
            rxDeliv = c;
        } else if (!outOfOrder) {
            held++;
            stats.held++;
            stats.maxHeld = Math.max(stats.maxHeld, held);
            out.hold(packet, path, now, held);
            if (config.holdLimit()) heldByArrival.addLast(new long[] {count, now});
        }
        if (config.holdLimit()) {
            armForOldestHeld();
            return;
        }
        if (timerRunning() && rxDeliv >= rxReord) timerExpiry = Long.MAX_VALUE;
        if (!timerRunning() && rxDeliv < rxNext) {
            rxReord = rxNext;
            timerExpiry = now + config.tReorderingNanos();
        }
    }

    /** Hold limit: the timer expires when the packet held longest has waited t-Reordering (not running if none). */
    private void armForOldestHeld() {
        dropReleased();
        timerExpiry = heldByArrival.isEmpty() ? Long.MAX_VALUE : heldByArrival.peekFirst()[1] + config.tReorderingNanos();
    }

    /** Hold limit: forgets the oldest entries of packets no longer held. */
    private void dropReleased() {
        while (!heldByArrival.isEmpty() && !buffer.containsKey(heldByArrival.peekFirst()[0])) heldByArrival.pollFirst();
    }

    /** Hold limit: one above the highest COUNT held for t-Reordering or longer at {@code now}. */
    private long aboveLongestHeld(long now) {
        long highest = rxDeliv - 1;
        for (long[] h : heldByArrival) {
            if (h[1] + config.tReorderingNanos() > now) break;
            if (buffer.containsKey(h[0])) highest = Math.max(highest, h[0]);
        }
        return highest + 1;
    }

    /** t-Reordering expires (TS 38.323 §5.2.2.2); call at {@link #timerExpiry()}. */
    public void expire(long now, Output out) {
        if (!timerRunning()) throw new IllegalStateException("t-Reordering is not running");
        timerExpiry = Long.MAX_VALUE;
        if (config.holdLimit()) rxReord = aboveLongestHeld(now);
        stats.timerExpiries++;
        out.timerExpired(now, rxReord, held);
        long gapStart = rxDeliv;
        // deliver all stored SDUs with COUNT < RX_REORD, in ascending order
        for (Map.Entry<Long, Stored> e; (e = buffer.firstEntry()) != null && e.getKey() < rxReord; ) {
            buffer.pollFirstEntry();
            skip(gapStart, e.getKey());
            gapStart = e.getKey() + 1;
            if (!e.getValue().delivered()) release(e.getValue(), now, true, out);
        }
        skip(gapStart, rxReord);
        // then all stored SDUs with consecutive COUNTs from RX_REORD; RX_DELIV = first not delivered, >= RX_REORD
        long c = rxReord;
        for (Stored s; (s = take(c)) != null; c++) {
            if (!s.delivered()) release(s, now, true, out);
        }
        rxDeliv = c;
        // what lies more than a window below RX_DELIV can no longer arrive as a COUNT below it
        while (!skipped.isEmpty() && skipped.firstEntry().getValue() <= rxDeliv - 2 * window) skipped.pollFirstEntry();
        if (config.holdLimit()) {
            armForOldestHeld();
        } else if (rxDeliv < rxNext) {
            rxReord = rxNext;
            timerExpiry = now + config.tReorderingNanos();
        }
    }

    private void release(Stored s, long now, boolean byTimer, Output out) {
        held--;
        if (byTimer) stats.releasedByTimer++; else stats.releasedByArrival++;
        stats.holdNanos.recordValue(Math.max(0, now - s.arrivedAt()));
        out.deliver(s.packet(), s.path(), s.arrivedAt(), now);
    }

    private Stored take(long count) {
        return buffer.remove(count);
    }

    /** COUNTs [from, to) were given up without being received. */
    private void skip(long from, long to) {
        if (to <= from) return;
        stats.skipped += to - from;
        Map.Entry<Long, Long> last = skipped.lastEntry();
        if (last != null && last.getValue() == from) {
            skipped.put(last.getKey(), to);
        } else {
            skipped.put(from, to);
        }
    }

    private boolean wasSkipped(long count) {
        Map.Entry<Long, Long> e = skipped.floorEntry(count);
        return e != null && count < e.getValue();
    }
}
