package org.pacelab.lab.scenario;

/** A place in a scenario file, printed as {@code file:line:column} (both 1-based). */
public record Location(String file, int line, int column) {
    @Override
    public String toString() {
        return file + ":" + line + ":" + column;
    }
}
