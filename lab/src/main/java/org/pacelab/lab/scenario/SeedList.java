package org.pacelab.lab.scenario;

import java.util.ArrayList;
import java.util.List;

/** Seeds of consecutive repetitions: repetition r (1-based) uses {@code first + r - 1}. */
public final class SeedList {
    private SeedList() {}

    public static List<Long> from(long first, int repetitions) {
        List<Long> out = new ArrayList<>(repetitions);
        for (int r = 0; r < repetitions; r++) {
            out.add(first + r);
        }
        return List.copyOf(out);
    }
}
