package org.pacelab.lab.run;

/** A repetition that did not finish: one sentence saying what went wrong and where its logs are. */
public final class RunFailedException extends Exception {
    public RunFailedException(String sentence) {
        super(sentence);
    }

    public RunFailedException(String sentence, Throwable cause) {
        super(sentence, cause);
    }
}
