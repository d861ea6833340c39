package org.pacelab.quic.cc;

import java.util.List;

/**
 * In-flight packets declared lost by one run of loss detection (RFC 9002 §B.8).
 *
 * @param now                  the time loss was declared, ns
 * @param lost                 the lost packets, in ascending packet-number order
 * @param rtt                  the RTT estimates
 * @param priorBytesInFlight   bytes in flight before removing the lost packets
 * @param bytesInFlight        bytes in flight after removing them
 * @param persistentCongestion whether these losses establish persistent congestion (RFC 9002 §7.6)
 * @param delivered            C.delivered: bytes delivered over the connection's lifetime
 * @param totalLost            C.lost, these packets included: bytes declared lost over the connection's lifetime
 *                             (draft-ietf-ccwg-bbr §"Delivery Rate Samples")
 */
public record LossEvent(long now, List<PacketInfo> lost, RttEstimates rtt, long priorBytesInFlight,
                        long bytesInFlight, boolean persistentCongestion, long delivered, long totalLost) {

    public long lostBytes() {
        long sum = 0;
        for (PacketInfo p : lost) {
            sum += p.size();
        }
        return sum;
    }

    /** Send time of the most recently sent lost packet, the argument of OnCongestionEvent (RFC 9002 §B.6). */
    public long largestLostSentTime() {
        long t = Long.MIN_VALUE;
        for (PacketInfo p : lost) {
            t = Math.max(t, p.timeSent());
        }
        return t;
    }
}
