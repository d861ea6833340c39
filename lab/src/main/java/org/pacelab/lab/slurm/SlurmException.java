package org.pacelab.lab.slurm;

/** A problem with the Slurm cluster or its use, as one sentence that says what is wrong and how to fix it. */
public final class SlurmException extends Exception {
    public SlurmException(String sentence) {
        super(sentence);
    }
}
