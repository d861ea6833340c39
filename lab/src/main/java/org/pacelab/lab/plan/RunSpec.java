package org.pacelab.lab.plan;

/** One repetition of a configuration; {@link #key()} identifies it in the store and on disk. */
public record RunSpec(Configuration configuration, int repetition, long seed) {
    public String key() {
        return configuration.id() + "/" + repetition;
    }
}
