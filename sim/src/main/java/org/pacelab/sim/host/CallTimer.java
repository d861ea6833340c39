package org.pacelab.sim.host;

/**
 * Told the real (wall-clock) duration of each connection call a host makes — for calibration only: measuring what
 * the QUIC stack costs per datagram under a realistic packet mix. The durations never reach virtual time, so a
 * timed simulation stays deterministic.
 */
public interface CallTimer {
    /** {@code send} produced a datagram of {@code length} bytes in {@code nanos}. */
    void sent(int length, long nanos);

    /** A datagram of {@code length} bytes was received and processed in {@code nanos}. */
    void received(int length, long nanos);
}
