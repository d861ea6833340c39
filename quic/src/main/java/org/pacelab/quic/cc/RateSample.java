package org.pacelab.quic.cc;

/**
 * A delivery-rate sample (draft-cheng-iccrg-delivery-rate-estimation §3.3, as used by BBR).
 *
 * @param deliveryRate    bytes per second delivered over the sample's interval (0 if none)
 * @param interval        the sample's interval, ns
 * @param delivered       bytes delivered over the interval
 * @param priorDelivered  C.delivered when the sample's packet was sent
 * @param priorTime       C.delivered_time when the sample's packet was sent
 * @param isAppLimited    whether the sample was taken while application-limited
 * @param rtt             RTT of the most recently sent packet acknowledged by this ACK, ns
 * @param newlyAcked      bytes newly acknowledged by this ACK
 * @param newlyLost       bytes newly declared lost while processing this ACK
 * @param txInFlight      bytes in flight when the sample's packet was sent
 * @param lost            bytes declared lost between the sample packet's send and this ACK
 */
public record RateSample(long deliveryRate, long interval, long delivered, long priorDelivered, long priorTime,
                         boolean isAppLimited, long rtt, long newlyAcked, long newlyLost, long txInFlight,
                         long lost) {
}
