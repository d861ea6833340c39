package org.pacelab.lab.scenario;

import java.nio.file.Path;
import java.util.List;

/**
 * A campaign's scenario as the command line made it: the file's text and the overrides ({@code --repetitions},
 * {@code --size}, {@code --only}), enough to read the same scenario again on another machine (a Slurm node plans
 * the campaign again from it and runs the runs it was given by key).
 *
 * @param source      the file name used in problem locations
 * @param text        the scenario file's text
 * @param baseDir     directory that relative paths in the scenario (traces) are resolved against
 * @param repetitions the {@code --repetitions} override, or null
 * @param size        the {@code --size} override (bytes per stream), or null
 * @param only        the {@code --only} implementations, or null for all
 * @param quick       whether the scenario's quick subset is read
 * @param order       the {@code --order} override, or null for the file's
 */
public record ScenarioRecipe(String source, String text, Path baseDir, Integer repetitions, Long size, List<String> only,
                             boolean quick, RunOrder order) {
    public ScenarioRecipe {
        only = only == null || only.isEmpty() ? null : List.copyOf(only);
    }

    /** A recipe in the file's run order. */
    public ScenarioRecipe(String source, String text, Path baseDir, Integer repetitions, Long size, List<String> only,
                          boolean quick) {
        this(source, text, baseDir, repetitions, size, only, quick, null);
    }

    /** A recipe of the whole scenario (not its quick subset). */
    public ScenarioRecipe(String source, String text, Path baseDir, Integer repetitions, Long size, List<String> only) {
        this(source, text, baseDir, repetitions, size, only, false);
    }

    /** The scenario file read as it is (its quick subset with {@code quick}), with the overrides applied. */
    public Scenario scenario() throws ScenarioException {
        return apply(ScenarioReader.parse(source, text, quick));
    }

    /** Applies the overrides to the scenario read from this recipe's text. */
    public Scenario apply(Scenario s) throws ScenarioException {
        if (repetitions != null) {
            s = ScenarioOverrides.withRepetitions(s, repetitions);
        }
        if (only != null) {
            s = ScenarioOverrides.only(s, only);
        }
        if (size != null) {
            if (size <= 0) {
                throw new ScenarioException(List.of("--size: must be at least 1 byte"));
            }
            s = ScenarioOverrides.withSize(s, size);
        }
        if (order != null) {
            s = ScenarioOverrides.withOrder(s, order);
        }
        return s;
    }
}
