package org.pacelab.peers.build;

/**
 * A program a build needs, the Debian package that provides it, and what it is for (named in the sentence that says
 * it is missing).
 */
public record Tool(String program, String debianPackage, String purpose) {
    /** "cmake is not installed; picoquic needs it to ... (Debian package cmake)". */
    public String missing(String peer) {
        return program + " is not installed; " + peer + " needs it " + purpose + " (Debian package " + debianPackage + ")";
    }
}
