package org.pacelab.quic.cc;

import java.util.List;

import org.pacelab.quic.recovery.RttEstimator;

/**
 * In-flight packets declared lost by one run of loss detection (RFC 9002 §B.8).
 *
 * @param now                  the time loss was declared, ns
 * @param lost                 the lost packets, in ascending packet-number order
 * @param rtt                  the RTT estimator
 * @param priorBytesInFlight   bytes in flight before removing the lost packets
 * @param bytesInFlight        bytes in flight after removing them
 * @param persistentCongestion whether these losses establish persistent congestion (RFC 9002 §7.6)
 */
public record LossEvent(long now, List<PacketInfo> lost, RttEstimator rtt, long priorBytesInFlight,
                        long bytesInFlight, boolean persistentCongestion) {

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
