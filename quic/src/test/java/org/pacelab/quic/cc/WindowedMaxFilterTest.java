package org.pacelab.quic.cc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

class WindowedMaxFilterTest {

    /** Against a brute-force maximum over the window, for any non-decreasing sample times. */
    @Property(tries = 300)
    void equalsTheBruteForceWindowMaximum(@ForAll @Size(max = 200) List<@IntRange(min = 0, max = 3) Integer> timeSteps,
                                          @ForAll @Size(max = 200) List<@IntRange(min = 0, max = 1_000_000) Integer> values,
                                          @ForAll @IntRange(min = 1, max = 10) int window) {
        WindowedMaxFilter f = new WindowedMaxFilter(10);
        List<long[]> seen = new ArrayList<>();
        long time = 0;
        int n = Math.min(timeSteps.size(), values.size());
        for (int i = 0; i < n; i++) {
            time += timeSteps.get(i);
            long got = f.update(values.get(i), time, window);
            seen.add(new long[] {time, values.get(i)});
            long expected = 0;
            for (long[] s : seen) {
                if (time - s[0] < window) {
                    expected = Math.max(expected, s[1]);
                }
            }
            assertEquals(expected, got);
        }
    }
}
