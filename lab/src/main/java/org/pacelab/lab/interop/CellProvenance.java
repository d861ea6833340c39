package org.pacelab.lab.interop;

/**
 * Where a cell's result came from, so that a matrix built over several invocations says so: the pacelab commit that
 * ran it ({@code git describe}-like: a short hash, with "+changes" when the work tree differed), the invocation of
 * {@code pacelab interop} (its start, UTC), the cell's own start and end (UTC, ISO-8601), the host's 1-minute load
 * average at both (NaN where it could not be read) and the emulator's seed.
 */
public record CellProvenance(String commit, String invocation, String started, String finished, double loadStart,
                             double loadEnd, long seed) {
}
