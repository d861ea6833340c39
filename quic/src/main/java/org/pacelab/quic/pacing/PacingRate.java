package org.pacelab.quic.pacing;

/**
 * Inputs from which a pacer paces.
 *
 * @param bytesPerSecond pacing rate (0 means unknown: do not pace)
 * @param quantum        bytes that may leave back-to-back (burst size), at least one packet
 * @param congestionWindow the controller's window in bytes
 * @param smoothedRtt    smoothed RTT, ns
 * @param idle           whether nothing is in flight (a pacer may allow a burst after idle)
 */
public record PacingRate(long bytesPerSecond, long quantum, long congestionWindow, long smoothedRtt, boolean idle) {

    /** Time in ns to send {@code bytes} at this rate; 0 when the rate is unknown. */
    public long transmissionTime(long bytes) {
        if (bytesPerSecond <= 0) {
            return 0;
        }
        // exact integer arithmetic below 9.2 GB; no single burst comes near that
        return bytes * 1_000_000_000L / bytesPerSecond;
    }
}
