package org.pacelab.lab.scenario;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Collects the problems of a scenario so that all of them are reported at once, each as one sentence. */
public final class Problems {
    /** In the order first added; a set, so that dropping a repeated line costs O(1) however many there are. */
    private final Set<String> lines = new LinkedHashSet<>();

    public void add(Location at, String sentence) {
        lines.add(at + ": " + sentence);
    }

    public boolean isEmpty() {
        return lines.isEmpty();
    }

    public void throwIfAny() throws ScenarioException {
        if (!lines.isEmpty()) {
            throw new ScenarioException(List.copyOf(lines));
        }
    }
}
