package org.pacelab.lab.run;

import java.io.IOException;

/**
 * The campaign stopped before a run because its file system has less free space than the run would write ({@link
 * RunSpace}); one sentence with where, how much is free, how much is needed and the options. An {@link IOException}, so
 * that {@code pacelab run} and {@code pacelab reproduce} report it as they report other campaign failures (exit 1).
 */
public final class InsufficientSpaceException extends IOException {
    public InsufficientSpaceException(String sentence) {
        super(sentence);
    }
}
