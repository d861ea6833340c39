package org.pacelab.io.send;

/**
 * How many segments one connection's next GSO buffer may hold. Fixed at {@code --gso N}, or — with
 * {@code --gso-shrink-on-loss} — cut by a quarter whenever the connection's loss rate (packets declared lost /
 * packets sent) has risen by more than 0.1 percentage points since the last cut, never below min(10, N). This is
 * the rule of quiche's example server ({@code max_send_burst}, bounded below by 10 packets), which never grows the
 * buffer back.
 */
final class GsoBudget {
    static final double LOSS_RATE_STEP = 0.001;
    static final int FLOOR = 10;

    private final int maxSegments;
    private final boolean shrinkOnLoss;
    private int segments;
    private double lossRateAtLastCut;
    private int cuts;

    GsoBudget(int maxSegments, boolean shrinkOnLoss) {
        this.maxSegments = maxSegments;
        this.shrinkOnLoss = shrinkOnLoss;
        this.segments = maxSegments;
    }

    /** The limit for the next buffer, after looking at the connection's counters. */
    int segments(long packetsSent, long packetsLost) {
        if (shrinkOnLoss && packetsSent > 0) {
            double lossRate = (double) packetsLost / packetsSent;
            if (lossRate > lossRateAtLastCut + LOSS_RATE_STEP) {
                segments = Math.max(Math.min(FLOOR, maxSegments), segments * 3 / 4);
                lossRateAtLastCut = lossRate;
                cuts++;
            }
        }
        return segments;
    }

    int cuts() { return cuts; }
}
