package org.pacelab.peers.build;

/**
 * A peer could not be built or installed: one sentence naming what is missing or wrong and how to get it right. When
 * it is thrown, nothing of the attempt is left in the cache.
 */
public final class BuildException extends Exception {
    public BuildException(String sentence) {
        super(sentence);
    }

    public BuildException(String sentence, Throwable cause) {
        super(sentence, cause);
    }
}
