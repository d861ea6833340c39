package org.pacelab.lab.scenario;

import java.util.List;

/**
 * A scenario that cannot run: every problem is one sentence that starts with {@code file:line:column}, names the
 * key, and says what is valid. Several problems are reported together, one per line.
 */
public final class ScenarioException extends Exception {
    private final List<String> problems;

    public ScenarioException(List<String> problems) {
        super(String.join("\n", problems));
        if (problems.isEmpty()) {
            throw new IllegalArgumentException("a scenario error needs at least one problem");
        }
        this.problems = List.copyOf(problems);
    }

    public ScenarioException(Location at, String sentence) {
        this(List.of(at + ": " + sentence));
    }

    public List<String> problems() {
        return problems;
    }
}
