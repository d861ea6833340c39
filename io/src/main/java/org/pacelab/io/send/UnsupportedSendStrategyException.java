package org.pacelab.io.send;

import java.io.IOException;

/**
 * The running host cannot honour a requested send strategy (no fq/etf qdisc for SO_TXTIME, no paced-GSO kernel
 * patch, a device that cannot segment GSO buffers). The message is one sentence saying what is missing and what
 * to do; the runtime stops rather than send traffic that would silently be unpaced.
 */
public final class UnsupportedSendStrategyException extends IOException {
    public UnsupportedSendStrategyException(String message) {
        super(message);
    }
}
