package org.pacelab.quic.cc;

import java.util.List;

/**
 * An ACK frame's effect on in-flight packets, delivered once per ACK frame (RFC 9002 §A.7 / §B.5).
 *
 * @param now                the time the ACK was processed, ns
 * @param acked              newly acknowledged in-flight packets, in ascending packet-number order
 * @param rtt                the RTT estimates, already updated with this ACK's sample
 * @param priorBytesInFlight bytes in flight before the ACK was processed
 * @param bytesInFlight      bytes in flight after removing the acknowledged (and lost) packets
 * @param rateSample         delivery-rate sample for this ACK, or null when none could be taken
 * @param appLimited         whether the sender is currently application-limited
 * @param delivered          C.delivered after this ACK: bytes delivered over the connection's lifetime
 *                           (draft-ietf-ccwg-bbr §"Delivery Rate Samples")
 */
public record AckEvent(long now, List<PacketInfo> acked, RttEstimates rtt, long priorBytesInFlight,
                       long bytesInFlight, RateSample rateSample, boolean appLimited, long delivered) {

    public long ackedBytes() {
        long sum = 0;
        for (PacketInfo p : acked) {
            sum += p.size();
        }
        return sum;
    }

    public PacketInfo largestAcked() {
        return acked.isEmpty() ? null : acked.get(acked.size() - 1);
    }
}
