package org.pacelab.quic.frame;

import java.util.Arrays;
import java.util.Objects;

/**
 * ACK (RFC 9000 §19.3). {@code ranges} holds inclusive packet-number ranges as pairs
 * {@code [hi0, lo0, hi1, lo1, ...]} in descending order, with at least one unacknowledged packet
 * between two ranges ({@code hi(i+1) <= lo(i) - 2}); {@code ranges[0] == largestAcknowledged}.
 * {@code ackDelay} is the raw encoded value, not yet scaled by the ack_delay_exponent.
 * {@code ecn} is null for type 0x02 and present for type 0x03. The arrays are not copied.
 * Not ack-eliciting and not counted in flight (RFC 9002 §2).
 */
public record AckFrame(long largestAcknowledged, long ackDelay, long[] ranges, EcnCounts ecn) implements Frame {
    public AckFrame {
        Objects.requireNonNull(ranges, "ranges");
        if (ranges.length < 2 || (ranges.length & 1) != 0) {
            throw new IllegalArgumentException("ACK ranges must be non-empty [hi, lo] pairs, got " + ranges.length + " values");
        }
        if (ranges[0] != largestAcknowledged) {
            throw new IllegalArgumentException("largestAcknowledged " + largestAcknowledged + " differs from the first range's top " + ranges[0]);
        }
        if (ackDelay < 0) {
            throw new IllegalArgumentException("ackDelay must be >= 0, not " + ackDelay);
        }
        long previousLow = Long.MAX_VALUE;
        for (int i = 0; i < ranges.length; i += 2) {
            long hi = ranges[i];
            long lo = ranges[i + 1];
            if (lo < 0 || hi < lo) {
                throw new IllegalArgumentException("ACK range " + (i / 2) + " [" + hi + ", " + lo + "] is not a valid inclusive range");
            }
            if (i > 0 && hi > previousLow - 2) {
                throw new IllegalArgumentException("ACK range " + (i / 2) + " top " + hi + " must be <= previous range bottom " + previousLow + " - 2");
            }
            previousLow = lo;
        }
    }

    /** An ACK frame for the given descending ranges; the largest acknowledged is {@code rangesDescending[0]}. */
    public static AckFrame of(long ackDelay, long[] rangesDescending, EcnCounts ecn) {
        if (rangesDescending == null || rangesDescending.length == 0) {
            throw new IllegalArgumentException("ACK needs at least one range");
        }
        return new AckFrame(rangesDescending[0], ackDelay, rangesDescending, ecn);
    }

    @Override
    public long type() { return ecn == null ? FrameType.ACK : FrameType.ACK_ECN; }

    @Override
    public boolean ackEliciting() { return false; }

    @Override
    public boolean countsInFlight() { return false; }

    /** The number of ranges (pairs). */
    public int rangeCount() { return ranges.length >> 1; }

    /** The smallest acknowledged packet number. */
    public long smallest() { return ranges[ranges.length - 1]; }

    /** Whether {@code pn} lies in one of the ranges (binary search). */
    public boolean acks(long pn) {
        int lo = 0;
        int hi = (ranges.length >> 1) - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (pn > ranges[2 * mid]) {
                hi = mid - 1;
            } else if (pn < ranges[2 * mid + 1]) {
                lo = mid + 1;
            } else {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AckFrame a && a.largestAcknowledged == largestAcknowledged && a.ackDelay == ackDelay
                && Arrays.equals(a.ranges, ranges) && Objects.equals(a.ecn, ecn);
    }

    @Override
    public int hashCode() {
        return Objects.hash(largestAcknowledged, ackDelay, Arrays.hashCode(ranges), ecn);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("AckFrame[largest=").append(largestAcknowledged)
                .append(", ackDelay=").append(ackDelay).append(", ranges=");
        for (int i = 0; i < ranges.length; i += 2) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append(ranges[i + 1]).append('-').append(ranges[i]);
        }
        if (ecn != null) {
            sb.append(", ecn=").append(ecn);
        }
        return sb.append(']').toString();
    }
}
