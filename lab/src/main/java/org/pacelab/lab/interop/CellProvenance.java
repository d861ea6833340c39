package org.pacelab.lab.interop;

/**
 * Where a cell's result came from, so that a matrix built over several invocations says so: the commit the running
 * pacelab was built from ({@link org.pacelab.lab.host.SourceCommit}: a short hash, with "+dirty" when its sources
 * differed from it; older results may say "+changes", the earlier mark of a changed work tree at the time the cell
 * ran), the invocation of {@code pacelab interop} (its start, UTC), the cell's own start and end (UTC, ISO-8601), the
 * host's 1-minute load average at both (NaN where it could not be read), the emulator's seed, and how many cells the
 * invocation ran at once ({@code --jobs}; 1 in results written before the option existed, which ran one at a time).
 */
public record CellProvenance(String commit, String invocation, String started, String finished, double loadStart,
                             double loadEnd, long seed, int jobs) {
}
