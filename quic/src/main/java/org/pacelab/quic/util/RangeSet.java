package org.pacelab.quic.util;

import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.TreeMap;

/**
 * A set of non-negative longs kept as disjoint, non-adjacent half-open ranges {@code [start, end)}.
 * Used for received packet numbers, acknowledged and lost stream bytes, and reassembly.
 */
public final class RangeSet implements Iterable<RangeSet.Range> {

    /** A half-open range {@code [start, end)}. */
    public record Range(long start, long end) {
        public long length() { return end - start; }
    }

    private final TreeMap<Long, Long> ranges = new TreeMap<>();

    /** Adds {@code [start, end)}; returns how many values were not in the set before. */
    public long add(long start, long end) {
        if (end <= start) {
            return 0;
        }
        long added = end - start;
        Map.Entry<Long, Long> floor = ranges.floorEntry(start);
        if (floor != null && floor.getValue() >= start) {
            if (floor.getValue() >= end) {
                return 0;
            }
            added -= floor.getValue() - start;
            // the range reaching start grows in place (put below replaces its end): the common case of a value just
            // after the last one (a packet number received in order) makes no new map entry
            start = floor.getKey();
        }
        // absorb every range starting inside (start, end] (none starts at start but the one grown in place)
        Map.Entry<Long, Long> next = ranges.higherEntry(start);
        while (next != null && next.getKey() <= end) {
            long overlapEnd = Math.min(next.getValue(), end);
            added -= Math.max(0, overlapEnd - next.getKey());
            end = Math.max(end, next.getValue());
            ranges.remove(next.getKey());
            next = ranges.higherEntry(start);
        }
        ranges.put(start, end);
        return added;
    }

    public void add(long value) {
        add(value, value + 1);
    }

    /** Removes {@code [start, end)} from the set. */
    public void remove(long start, long end) {
        if (end <= start) {
            return;
        }
        Map.Entry<Long, Long> floor = ranges.floorEntry(start);
        if (floor != null && floor.getValue() > start) {
            long fs = floor.getKey();
            long fe = floor.getValue();
            ranges.remove(fs);
            if (fs < start) {
                ranges.put(fs, start);
            }
            if (fe > end) {
                ranges.put(end, fe);
                return;
            }
        }
        Map.Entry<Long, Long> next = ranges.ceilingEntry(start);
        while (next != null && next.getKey() < end) {
            ranges.remove(next.getKey());
            if (next.getValue() > end) {
                ranges.put(end, next.getValue());
                break;
            }
            next = ranges.ceilingEntry(start);
        }
    }

    /** Removes every value below {@code value}. */
    public void removeBelow(long value) {
        remove(Long.MIN_VALUE / 2, value);
    }

    public boolean contains(long value) {
        Map.Entry<Long, Long> floor = ranges.floorEntry(value);
        return floor != null && floor.getValue() > value;
    }

    /** Whether all of {@code [start, end)} is in the set. */
    public boolean containsAll(long start, long end) {
        if (end <= start) {
            return true;
        }
        Map.Entry<Long, Long> floor = ranges.floorEntry(start);
        return floor != null && floor.getValue() >= end;
    }

    public boolean isEmpty() { return ranges.isEmpty(); }

    public int rangeCount() { return ranges.size(); }

    /** The lowest value, or throws when empty. */
    public long first() {
        return ranges.firstKey();
    }

    /** The highest value, or throws when empty. */
    public long last() {
        return ranges.lastEntry().getValue() - 1;
    }

    /** The first range, or null. */
    public Range firstRange() {
        Map.Entry<Long, Long> e = ranges.firstEntry();
        return e == null ? null : new Range(e.getKey(), e.getValue());
    }

    /** End of the range starting at or below {@code value} and containing it, or {@code value} if absent. */
    public long contiguousEnd(long value) {
        Map.Entry<Long, Long> floor = ranges.floorEntry(value);
        return floor != null && floor.getValue() > value ? floor.getValue() : value;
    }

    /** Removes and returns the lowest range, clipped to at most {@code maxLength} values; null if empty. */
    public Range pollFirst(long maxLength) {
        Map.Entry<Long, Long> e = ranges.pollFirstEntry();
        if (e == null) {
            return null;
        }
        long end = e.getValue();
        if (end - e.getKey() > maxLength) {
            end = e.getKey() + maxLength;
            ranges.put(end, e.getValue());
        }
        return new Range(e.getKey(), end);
    }

    /** Removes the lowest ranges until at most {@code max} remain. */
    public void trimToRanges(int max) {
        while (ranges.size() > max) {
            ranges.pollFirstEntry();
        }
    }

    public void clear() { ranges.clear(); }

    /** Iterates ranges in descending order (highest first), as ACK frames list them. */
    public Iterator<Range> descendingIterator() {
        Iterator<Map.Entry<Long, Long>> it = ranges.descendingMap().entrySet().iterator();
        return mapped(it);
    }

    @Override
    public Iterator<Range> iterator() {
        return mapped(ranges.entrySet().iterator());
    }

    private static Iterator<Range> mapped(Iterator<Map.Entry<Long, Long>> it) {
        return new Iterator<>() {
            @Override
            public boolean hasNext() { return it.hasNext(); }

            @Override
            public Range next() {
                if (!it.hasNext()) {
                    throw new NoSuchElementException();
                }
                Map.Entry<Long, Long> e = it.next();
                return new Range(e.getKey(), e.getValue());
            }
        };
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("{");
        for (Range r : this) {
            if (sb.length() > 1) {
                sb.append(',');
            }
            sb.append('[').append(r.start).append(',').append(r.end).append(')');
        }
        return sb.append('}').toString();
    }
}
