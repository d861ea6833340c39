package org.pacelab.quic.pacing;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Rate bounds every pacer keeps whatever the packet sizes and however late the sender is: over any interval
 * [a, b] of intended send times it releases at most rate * (b - a) + allowance bytes, where the allowance is
 * one quantum plus one packet for the buckets (a full bucket, plus the packet that starts the interval), and
 * one quantum plus one packet plus the pay-back of lateness (at most half of each gap) for the interval
 * pacer, which is bounded by twice the rate.
 */
class PacerPropertiesTest {
    private static final long RATE = 1_000_000;      // 1000 bytes per ms

    private static long[] sendAll(Pacer pacer, List<Integer> sizes, List<Integer> delaysUs, long quantum) {
        pacer.update(0, new PacingRate(RATE, quantum, 100_000, 10_000_000, false));
        long now = 0;
        long[] intended = new long[sizes.size()];
        for (int i = 0; i < sizes.size(); i++) {
            int size = sizes.get(i);
            now += delaysUs.get(i % delaysUs.size()) * 1000L;     // the sender shows up whenever it likes
            long t = pacer.releaseTime(now, size);
            if (t > now) {
                now = t + delaysUs.get((i + 1) % delaysUs.size()) * 100L;    // wakes up, maybe a little late
                t = pacer.releaseTime(now, size);
            }
            pacer.onPacketSent(t, size);
            intended[i] = t;
        }
        return intended;
    }

    private static void checkBound(long[] intended, List<Integer> sizes, double rateFactor, long allowance) {
        for (int a = 0; a < intended.length; a++) {
            long bytes = 0;
            for (int b = a; b < intended.length; b++) {
                bytes += sizes.get(b);
                long span = intended[b] - intended[a];
                double limit = rateFactor * RATE * span / 1e9 + allowance;
                assertTrue(bytes <= limit + 1, "bytes " + bytes + " in " + span + " ns exceed " + limit);
            }
        }
    }

    @Property(tries = 200)
    void bucketsNeverExceedRatePlusOneQuantum(@ForAll @Size(min = 1, max = 60) List<@IntRange(min = 50, max = 1500) Integer> sizes,
                                               @ForAll @Size(min = 1, max = 10) List<@IntRange(min = 0, max = 3000) Integer> delaysUs,
                                               @ForAll @IntRange(min = 1500, max = 6000) int quantum) {
        for (Pacer p : List.of(new LeakyBucketPacer(0), new TokenBucketPacer(0))) {
            long[] t = sendAll(p, sizes, delaysUs, quantum);
            checkBound(t, sizes, 1.0, quantum + 1500);
        }
    }

    @Property(tries = 200)
    void intervalPacerNeverExceedsTwiceTheRatePlusOneQuantum(@ForAll @Size(min = 1, max = 60) List<@IntRange(min = 50, max = 1500) Integer> sizes,
                                                             @ForAll @Size(min = 1, max = 10) List<@IntRange(min = 0, max = 3000) Integer> delaysUs,
                                                             @ForAll @IntRange(min = 1500, max = 6000) int quantum) {
        long[] t = sendAll(new IntervalPacer(0), sizes, delaysUs, quantum);
        checkBound(t, sizes, 2.0, quantum + 1500);
    }

    @Property(tries = 200)
    void punctualSenderOnTheIntervalPacerKeepsTheRate(@ForAll @Size(min = 1, max = 60) List<@IntRange(min = 50, max = 1500) Integer> sizes) {
        IntervalPacer pacer = new IntervalPacer(0);
        pacer.update(0, new PacingRate(RATE, 1, 100_000, 10_000_000, false));
        long now = 0;
        long[] intended = new long[sizes.size()];
        for (int i = 0; i < sizes.size(); i++) {
            long t = pacer.releaseTime(now, sizes.get(i));
            now = Math.max(now, t);
            intended[i] = pacer.releaseTime(now, sizes.get(i));
            pacer.onPacketSent(intended[i], sizes.get(i));
        }
        // quantum of one byte: every packet waits for the previous one's transmission time exactly
        for (int i = 1; i < intended.length; i++) {
            assertTrue(intended[i] - intended[i - 1] == sizes.get(i - 1) * 1000L,
                    "gap " + (intended[i] - intended[i - 1]) + " after " + sizes.get(i - 1) + " bytes");
        }
    }
}
