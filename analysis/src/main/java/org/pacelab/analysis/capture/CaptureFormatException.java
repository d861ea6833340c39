package org.pacelab.analysis.capture;

import java.io.IOException;
import java.nio.file.Path;

/** A capture file that is not valid pcap/pcapng at a given byte offset. */
public final class CaptureFormatException extends IOException {
    private final long byteOffset;

    public CaptureFormatException(Path file, long byteOffset, String problem) {
        super(file + " at byte offset " + byteOffset + ": " + problem);
        this.byteOffset = byteOffset;
    }

    /** Offset in the file where the problem starts. */
    public long byteOffset() {
        return byteOffset;
    }
}
