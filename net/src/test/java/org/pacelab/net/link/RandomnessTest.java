package org.pacelab.net.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

class RandomnessTest {
    private static final long MS = 1_000_000L;

    private static double[] meanAndCov(Jitter j, long base, int n) {
        RandomGenerator rng = new RandomStreams(42).stream("test/jitter");
        double sum = 0, sumSq = 0;
        for (int i = 0; i < n; i++) {
            double x = j.sample(base, rng);
            sum += x;
            sumSq += x * x;
        }
        double mean = sum / n;
        double sd = Math.sqrt(sumSq / n - mean * mean);
        return new double[] {mean, sd / mean};
    }

    @Test
    void normalJitterHasConfiguredMeanAndCov() {
        double[] m = meanAndCov(new Jitter.Normal(0.1, 0), 20 * MS, 200_000);
        assertTrue(Math.abs(m[0] / (20.0 * MS) - 1) < 0.02, "mean " + m[0]);
        assertTrue(Math.abs(m[1] / 0.1 - 1) < 0.02, "cov " + m[1]);
    }

    @Test
    void uniformJitterHasConfiguredMeanAndSpread() {
        double[] m = meanAndCov(new Jitter.Uniform(2 * MS), 20 * MS, 200_000);
        assertTrue(Math.abs(m[0] / (20.0 * MS) - 1) < 0.02, "mean " + m[0]);
        double expectedCov = 2.0 / Math.sqrt(3) / 20.0; // sd of U(-w, w) is w / sqrt(3)
        assertTrue(Math.abs(m[1] / expectedCov - 1) < 0.02, "cov " + m[1]);
    }

    @Test
    void gilbertElliottReachesItsStationaryLossRate() {
        LossModel ge = new LossModel.GilbertElliott(0.01, 0.3, 0.0, 1.0);
        RandomGenerator rng = new RandomStreams(3).stream("down/loss");
        int n = 2_000_000, lost = 0;
        for (int i = 0; i < n; i++) if (ge.lose(rng)) lost++;
        double expected = 0.01 / 0.31;
        assertEquals(expected, ge.stationaryLossRate(), 1e-12);
        assertTrue(Math.abs((double) lost / n / expected - 1) < 0.03, "loss rate " + (double) lost / n);
    }

    @Test
    void bernoulliLossRate() {
        LossModel b = new LossModel.Bernoulli(0.05);
        RandomGenerator rng = new RandomStreams(3).stream("down/loss");
        int n = 1_000_000, lost = 0;
        for (int i = 0; i < n; i++) if (b.lose(rng)) lost++;
        assertTrue(Math.abs((double) lost / n / 0.05 - 1) < 0.02);
    }

    private static List<Long> deliveries(long seed, boolean reorder) {
        DirectionModel m = new DirectionModel(0, 38, new LossModel.Bernoulli(0.1), 0, 0, new SerializingRateLimiter(10_000_000L),
                0, QueueLimit.ofPackets(50), false, 10 * MS, new Jitter.Normal(0.3, 0), reorder);
        LinkDirection d = new LinkDirection(Direction.DOWN, m, new RandomStreams(seed), LinkObserver.NONE);
        long[] times = new long[300];
        int[] sizes = new int[300];
        for (int i = 0; i < 300; i++) { times[i] = i * 500_000L; sizes[i] = 1200; }
        return LinkTestSupport.run(d, times, sizes).stream().map(x -> x.packet().id() * 1_000_000_000_000L + x.time()).toList();
    }

    @Test
    void sameSeedSameRunDifferentSeedDifferentSamples() {
        assertEquals(deliveries(9, true), deliveries(9, true));
        assertNotEquals(deliveries(9, true), deliveries(10, true));
    }

    @Test
    void withoutReorderingPacketsLeaveInOrder() {
        List<Long> ids = deliveries(5, false).stream().map(v -> v / 1_000_000_000_000L).toList();
        assertEquals(ids.stream().sorted().toList(), ids);
        List<Long> reordered = deliveries(5, true).stream().map(v -> v / 1_000_000_000_000L).toList();
        assertNotEquals(reordered.stream().sorted().toList(), reordered);
    }

    @Test
    void streamsAreIndependentOfEachOther() {
        RandomStreams s = new RandomStreams(1);
        assertNotEquals(s.stream("down/loss").nextLong(), s.stream("up/loss").nextLong());
        assertEquals(s.stream("down/loss").nextLong(), new RandomStreams(1).stream("down/loss").nextLong());
    }
}
