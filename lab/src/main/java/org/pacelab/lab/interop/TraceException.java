package org.pacelab.lab.interop;

import java.io.IOException;

/**
 * A tap that could not be read for a check (tshark failed or took too long, its output broke off, or the tap holds more
 * QUIC packets than {@link TraceReader} keeps); the message is one sentence naming the capture file, and it becomes the
 * cell's failure reason, never an error of the whole matrix.
 */
public final class TraceException extends IOException {
    public TraceException(String sentence) {
        super(sentence);
    }
}
