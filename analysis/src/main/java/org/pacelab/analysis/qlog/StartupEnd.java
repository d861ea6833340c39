package org.pacelab.analysis.qlog;

/**
 * The end of a sender's initial slow start (BBR: Startup) as its qlog shows it: the first
 * {@code congestion_state_updated} into a state that is not slow start ({@code slow_start},
 * {@code conservative_slow_start}, {@code startup}, or {@code application_limited} on the way), or the first
 * {@code metrics_updated} that sets an ssthresh, whichever comes first.
 *
 * @param sinceStartS   seconds from the trace's first event (the connection's start) to the end
 * @param timeMs        the end in the trace's clock (ms relative to its reference time)
 * @param state         the state entered ({@code congestion_avoidance}, {@code recovery}, {@code drain}, ...) or
 *                      {@code ssthresh_set} when only the ssthresh showed it
 * @param maxCwndBytes  the largest congestion window reported before the end (-1: none reported)
 */
public record StartupEnd(double sinceStartS, double timeMs, String state, long maxCwndBytes) {}
