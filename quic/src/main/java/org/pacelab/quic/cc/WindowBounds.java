package org.pacelab.quic.cc;

/** The window limits of RFC 9002 §7.2, shared by every controller. */
public final class WindowBounds {
    private WindowBounds() {}

    /** RFC 9002 §7.2: kInitialWindow = min(10 * max_datagram_size, max(14720, 2 * max_datagram_size)). */
    public static long initialWindow(int maxDatagramSize) {
        return Math.min(10L * maxDatagramSize, Math.max(14720L, 2L * maxDatagramSize));
    }

    /** RFC 9002 §7.2: kMinimumWindow = 2 * max_datagram_size. */
    public static long minimumWindow(int maxDatagramSize) {
        return 2L * maxDatagramSize;
    }
}
