package org.pacelab.lab.scenario;

import java.util.ArrayList;
import java.util.List;

/** Collects the problems of a scenario so that all of them are reported at once, each as one sentence. */
public final class Problems {
    private final List<String> list = new ArrayList<>();

    public void add(Location at, String sentence) {
        String line = at + ": " + sentence;
        if (!list.contains(line)) {
            list.add(line);
        }
    }

    public boolean isEmpty() {
        return list.isEmpty();
    }

    public void throwIfAny() throws ScenarioException {
        if (!list.isEmpty()) {
            throw new ScenarioException(list);
        }
    }
}
