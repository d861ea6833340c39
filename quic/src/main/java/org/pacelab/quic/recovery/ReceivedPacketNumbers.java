package org.pacelab.quic.recovery;

import java.util.Arrays;

/**
 * The packet numbers received in one packet number space, for {@link AckTracker}: at most {@code capacity} disjoint,
 * non-adjacent ranges {@code [start, end)} in two arrays of primitives, lowest first; a packet number that would make
 * one range more than that drops the lowest range (RFC 9000 §13.2.3: an ACK frame need not repeat old ranges; the
 * tracker treats what lies below as received). The usual case, the next packet number in order, moves the highest
 * range's end and allocates nothing (a {@code RangeSet}'s boxed ends were 8 % of a downloading client's sampled
 * allocation at e5709ba); bounded, the other cases cost at most a copy of {@code capacity} values.
 */
final class ReceivedPacketNumbers {
    private final int capacity;
    private final long[] starts;
    private final long[] ends;
    private int count;
    /** The lowest range's start once a range was dropped for room: what lies below counts as received; else 0. */
    private long droppedBelow;

    ReceivedPacketNumbers(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity " + capacity + " is not positive");
        }
        this.capacity = capacity;
        // one more than the capacity: a new range is put in its place, then the lowest dropped
        this.starts = new long[capacity + 1];
        this.ends = new long[capacity + 1];
    }

    /** Adds packet number {@code pn} (non-negative); returns whether it was not there before. */
    boolean add(long pn) {
        if (count > 0 && ends[count - 1] == pn) {
            ends[count - 1] = pn + 1;
            return true;
        }
        int i = firstStartAbove(pn);
        if (i > 0 && ends[i - 1] > pn) {
            return false;
        }
        boolean joinsBelow = i > 0 && ends[i - 1] == pn;
        boolean joinsAbove = i < count && starts[i] == pn + 1;
        if (joinsBelow && joinsAbove) {
            ends[i - 1] = ends[i];
            removeAt(i);
        } else if (joinsBelow) {
            ends[i - 1] = pn + 1;
        } else if (joinsAbove) {
            starts[i] = pn;
        } else {
            System.arraycopy(starts, i, starts, i + 1, count - i);
            System.arraycopy(ends, i, ends, i + 1, count - i);
            starts[i] = pn;
            ends[i] = pn + 1;
            count++;
            if (count > capacity) {
                removeAt(0);
                droppedBelow = starts[0];
            }
        }
        return true;
    }

    boolean contains(long pn) {
        if (count == 0 || pn >= ends[count - 1]) {
            // above every range: a new packet, the usual case
            return false;
        }
        int i = firstStartAbove(pn);
        return i > 0 && ends[i - 1] > pn;
    }

    /** The end of the range holding {@code value}, or {@code value} when it was not received. */
    long contiguousEnd(long value) {
        int i = firstStartAbove(value);
        return i > 0 && ends[i - 1] > value ? ends[i - 1] : value;
    }

    /** Forgets every packet number below {@code value}. */
    void removeBelow(long value) {
        int i = firstStartAbove(value);
        int keep = i;
        if (i > 0 && ends[i - 1] > value) {
            // the range holding value keeps its part from value on
            keep = i - 1;
            starts[keep] = value;
        }
        if (keep > 0) {
            System.arraycopy(starts, keep, starts, 0, count - keep);
            System.arraycopy(ends, keep, ends, 0, count - keep);
            count -= keep;
        }
    }

    /**
     * Packet numbers below this are not in the ranges because a range was dropped for room (the dropped range and the
     * gaps above it): they count as received, so a late copy is a duplicate (RFC 9000 §12.3); 0 until a range is
     * dropped.
     */
    long droppedBelow() { return droppedBelow; }

    boolean isEmpty() { return count == 0; }

    int rangeCount() { return count; }

    /**
     * The ranges as an ACK frame lists them (RFC 9000 §19.3.1), highest first: for each, its largest then its smallest
     * packet number.
     */
    long[] descendingBounds() {
        long[] bounds = new long[2 * count];
        for (int r = count - 1, j = 0; r >= 0; r--) {
            bounds[j++] = ends[r] - 1;
            bounds[j++] = starts[r];
        }
        return bounds;
    }

    /** The index of the first range starting above {@code value} ({@code count} when none does). */
    private int firstStartAbove(long value) {
        int i = Arrays.binarySearch(starts, 0, count, value);
        return i >= 0 ? i + 1 : -i - 1;
    }

    private void removeAt(int i) {
        System.arraycopy(starts, i + 1, starts, i, count - i - 1);
        System.arraycopy(ends, i + 1, ends, i, count - i - 1);
        count--;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("{");
        for (int r = 0; r < count; r++) {
            sb.append(r > 0 ? "," : "").append('[').append(starts[r]).append(',').append(ends[r]).append(')');
        }
        return sb.append('}').toString();
    }
}
