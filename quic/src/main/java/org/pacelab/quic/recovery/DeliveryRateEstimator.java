package org.pacelab.quic.recovery;

import org.pacelab.quic.cc.RateSample;

/**
 * Delivery-rate estimation, draft-cheng-iccrg-delivery-rate-estimation (the algorithm is now also
 * §"Delivery Rate Samples" of draft-ietf-ccwg-bbr, whose variable names this class follows): one per
 * connection, fed by the connection, read by congestion controllers (BBR) through {@link RateSample}s.
 *
 * <p>Connection state: {@code C.delivered} ({@link #delivered()}), {@code C.delivered_time},
 * {@code C.first_send_time}, {@code C.app_limited} and {@code C.lost} ({@link #lost()}). Per-packet state is
 * stored in the {@link SentPacket}'s delivery fields by {@link #onPacketSent}.
 *
 * <h2>How a connection calls it</h2>
 * <ol>
 *   <li>For every packet that counts in flight, right after it is handed to the runtime and before
 *       {@code CongestionController.onPacketSent}:
 *       {@link #onPacketSent(SentPacket, long, long) onPacketSent(packet, bytesInFlightBefore, now)}
 *       ({@code bytesInFlightBefore} excludes the packet; {@code now} is the packet's send time).</li>
 *   <li>Per ACK frame, after loss detection ran: {@link #onPacketLost(SentPacket)} for every in-flight packet
 *       it declared lost, then {@link #onPacketAcked(SentPacket, long)} for every newly acknowledged in-flight
 *       packet (a packet that had been declared lost and is acknowledged after all may be passed too: it was
 *       delivered), then {@link #generateRateSample(long)} once, with the RTT estimator's min RTT. The sample
 *       goes into the {@code AckEvent}. Losses declared by the loss timer (no ACK) are reported with
 *       {@link #onPacketLost} when they happen and are counted in the next sample's {@code newlyLost}.</li>
 *   <li>When the sender has nothing to send although congestion control and pacing would allow it (checked
 *       when the application writes, at the start of ACK processing and on timers that may send):
 *       {@link #markAppLimited(long) markAppLimited(bytesInFlight)} (draft §"Detecting application-limited
 *       phases", {@code MarkConnectionAppLimited}). BBR also asks for it in ProbeRTT, through the callback
 *       {@link CongestionSetup} gives it.</li>
 * </ol>
 * All times are nanoseconds passed in; the class reads no clock.
 */
public final class DeliveryRateEstimator {
    /** Marks a packet whose delivery was already counted (the draft uses P.delivered_time = 0). */
    private static final long DELIVERED = Long.MIN_VALUE;

    private long delivered;
    private long deliveredTime;
    private long firstSendTime;
    private long appLimited;
    private long lost;

    // the rate sample being built for the current ACK (InitRateSample / UpdateRateSample)
    private boolean hasData;
    private long priorDelivered;
    private long priorTime;
    private boolean sampleAppLimited;
    private long sendElapsed;
    private long ackElapsed;
    private long lastAckedPacketNumber;
    private long newestSendTime;
    private long newestTxInFlight;
    private long newestLostBefore;
    private long newlyAcked;
    private long newlyLost;

    /** C.delivered: bytes delivered over the connection's lifetime. */
    public long delivered() { return delivered; }

    /** C.delivered_time: when {@link #delivered()} last changed, ns. */
    public long deliveredTime() { return deliveredTime; }

    /** C.first_send_time, ns. */
    public long firstSendTime() { return firstSendTime; }

    /** C.lost: bytes declared lost over the connection's lifetime. */
    public long lost() { return lost; }

    /** Whether the connection is in an application-limited phase ({@code C.app_limited != 0}). */
    public boolean isAppLimited() { return appLimited != 0; }

    /**
     * Transmitting a data packet (draft §"Transmitting a data packet", OnPacketSent): snapshots the
     * connection's delivery state into the packet.
     *
     * @param packet              the packet just sent (its {@code timeSent} is P.send_time)
     * @param bytesInFlightBefore bytes in flight before this packet
     * @param now                 the send time, ns (normally equal to {@code packet.timeSent})
     */
    public void onPacketSent(SentPacket packet, long bytesInFlightBefore, long now) {
        if (bytesInFlightBefore == 0) {
            firstSendTime = now;
            deliveredTime = now;
        }
        packet.firstSentTime = firstSendTime;
        packet.deliveredTime = deliveredTime;
        packet.delivered = delivered;
        packet.isAppLimited = appLimited != 0;
        packet.txInFlight = bytesInFlightBefore + (packet.inFlight ? packet.size : 0);
        packet.lostBefore = lost;
    }

    /** Loss detection declared an in-flight packet lost: C.lost grows (and the next sample's newly_lost). */
    public void onPacketLost(SentPacket packet) {
        lost += packet.size;
        newlyLost += packet.size;
    }

    /**
     * A packet was newly acknowledged (draft §"Upon receiving an ACK", UpdateRateSample). Packets already
     * counted as delivered are ignored.
     */
    public void onPacketAcked(SentPacket packet, long now) {
        if (packet.deliveredTime == DELIVERED) {
            return;
        }
        delivered += packet.size;
        deliveredTime = now;
        newlyAcked += packet.size;
        if (!hasData || isNewestPacket(packet)) {
            hasData = true;
            priorDelivered = packet.delivered;
            priorTime = packet.deliveredTime;
            sampleAppLimited = packet.isAppLimited;
            sendElapsed = packet.timeSent - packet.firstSentTime;
            ackElapsed = deliveredTime - packet.deliveredTime;
            lastAckedPacketNumber = packet.packetNumber;
            newestSendTime = packet.timeSent;
            newestTxInFlight = packet.txInFlight;
            newestLostBefore = packet.lostBefore;
            firstSendTime = packet.timeSent;
        }
        packet.deliveredTime = DELIVERED;
    }

    private boolean isNewestPacket(SentPacket p) {
        return p.timeSent > firstSendTime
                || (p.timeSent == firstSendTime && p.packetNumber > lastAckedPacketNumber);
    }

    /**
     * Finishes the sample for the ACK just processed (GenerateRateSample) and starts a new one.
     *
     * @param minRtt the connection's minimum RTT, ns (samples over a shorter interval are unreliable: their
     *               delivery rate is reported as 0)
     * @return the sample, or null when the ACK delivered nothing (no packet was passed to
     *         {@link #onPacketAcked} since the previous call)
     */
    public RateSample generateRateSample(long minRtt) {
        // clear the app-limited mark once the bubble has been acknowledged
        if (appLimited != 0 && delivered > appLimited) {
            appLimited = 0;
        }
        if (!hasData) {
            return null;
        }
        long interval = Math.max(sendElapsed, ackElapsed);
        long sampleDelivered = delivered - priorDelivered;
        long rate = 0;
        if (interval >= minRtt && interval > 0) {
            rate = rateOf(sampleDelivered, interval);
        }
        RateSample rs = new RateSample(rate, interval, sampleDelivered, priorDelivered, priorTime, sampleAppLimited,
                deliveredTime - newestSendTime, newlyAcked, newlyLost, newestTxInFlight, lost - newestLostBefore);
        hasData = false;
        newlyAcked = 0;
        newlyLost = 0;
        return rs;
    }

    /** C.app_limited = max(C.delivered + C.inflight, 1): samples until this much is delivered are app-limited. */
    public void markAppLimited(long bytesInFlight) {
        appLimited = Math.max(delivered + bytesInFlight, 1);
    }

    /** Bytes per second delivered over {@code intervalNanos}, rounded down. */
    static long rateOf(long bytes, long intervalNanos) {
        if (bytes <= Long.MAX_VALUE / 1_000_000_000L) {
            return bytes * 1_000_000_000L / intervalNanos;
        }
        return (long) (bytes * 1e9 / intervalNanos);
    }
}
