package org.pacelab.analysis.capture;

import java.nio.ByteBuffer;

/**
 * One captured frame, as a reusable view into the reader's buffer: valid until the reader's next call.
 * Reused across frames so that reading allocates nothing per packet.
 */
public final class CapturedFrame {
    long timestampNs;
    int interfaceId;
    int linkType;
    int capturedLength;
    int originalLength;
    ByteBuffer buffer;
    int offset;
    long fileOffset;

    /** Capture time in nanoseconds since the Unix epoch. */
    public long timestampNs() {
        return timestampNs;
    }

    /** pcapng interface index (0 for pcap). */
    public int interfaceId() {
        return interfaceId;
    }

    /** LINKTYPE_ value of the frame's interface (see {@link LinkType}). */
    public int linkType() {
        return linkType;
    }

    public int capturedLength() {
        return capturedLength;
    }

    /** Length of the frame on the wire (may exceed {@link #capturedLength()} when a snap length applied). */
    public int originalLength() {
        return originalLength;
    }

    /** Buffer holding the frame's bytes at {@code [offset(), offset() + capturedLength())}; absolute indexing only. */
    public ByteBuffer buffer() {
        return buffer;
    }

    public int offset() {
        return offset;
    }

    /** Byte offset in the capture file of the record holding this frame (for error messages). */
    public long fileOffset() {
        return fileOffset;
    }

    /** Sets every field; used by readers and by tests that build frames directly. */
    public CapturedFrame set(long timestampNs, int interfaceId, int linkType, ByteBuffer buffer, int offset,
                             int capturedLength, int originalLength, long fileOffset) {
        this.timestampNs = timestampNs;
        this.interfaceId = interfaceId;
        this.linkType = linkType;
        this.buffer = buffer;
        this.offset = offset;
        this.capturedLength = capturedLength;
        this.originalLength = originalLength;
        this.fileOffset = fileOffset;
        return this;
    }
}
