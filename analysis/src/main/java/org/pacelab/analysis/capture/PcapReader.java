package org.pacelab.analysis.capture;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Optional;

/**
 * Classic libpcap files with microsecond (magic a1b2c3d4) or nanosecond (a1b23c4d) timestamps, either
 * byte order (format: draft-ietf-opsawg-pcap).
 */
final class PcapReader implements CaptureReader {
    static final int MAGIC_MICROS = 0xa1b2c3d4;
    static final int MAGIC_NANOS = 0xa1b23c4d;
    private static final int FILE_HEADER = 24;
    private static final int RECORD_HEADER = 16;

    private final CaptureInput in;
    private final int linkType;
    private final int snapLength;
    private final int recordLimit;
    private final long fractionToNs;
    private String truncation;

    PcapReader(CaptureInput in) throws IOException {
        this.in = in;
        if (!in.ensure(FILE_HEADER)) {
            throw new CaptureFormatException(in.path(), in.offset(), "the pcap file header needs 24 bytes but the file has "
                    + in.size());
        }
        ByteBuffer b = in.buffer();
        int p = b.position();
        int magic = b.order(ByteOrder.BIG_ENDIAN).getInt(p);
        if (magic == MAGIC_MICROS || magic == MAGIC_NANOS) {
            in.order(ByteOrder.BIG_ENDIAN);
        } else {
            in.order(ByteOrder.LITTLE_ENDIAN);
            magic = in.buffer().getInt(p);
        }
        fractionToNs = magic == MAGIC_NANOS ? 1 : 1000;
        b = in.buffer();
        snapLength = b.getInt(p + 16);
        recordLimit = snapLength > 0 && snapLength <= CaptureInput.MAX_RECORD ? Math.max(snapLength, 262144) : 262144;
        linkType = b.getInt(p + 20) & 0xffff; // upper bits carry FCS information
        in.skip(FILE_HEADER);
    }

    @Override
    public boolean next(CapturedFrame frame) throws IOException {
        long recordOffset = in.offset();
        if (!in.ensure(RECORD_HEADER)) {
            if (in.buffer().hasRemaining()) {
                truncation = "the file ends inside the record header at byte offset " + recordOffset
                        + " (" + in.buffer().remaining() + " of 16 bytes present)";
            }
            return false;
        }
        ByteBuffer b = in.buffer();
        int p = b.position();
        long seconds = b.getInt(p) & 0xffffffffL;
        long fraction = b.getInt(p + 4) & 0xffffffffL;
        int capLen = b.getInt(p + 8);
        int origLen = b.getInt(p + 12);
        if (capLen < 0 || capLen > recordLimit) {
            throw new CaptureFormatException(in.path(), recordOffset, "record length " + Integer.toUnsignedString(capLen)
                    + " exceeds the snap length " + snapLength + "; the file is corrupt here");
        }
        if (!in.ensure(RECORD_HEADER + capLen)) {
            truncation = "the file ends inside the record at byte offset " + recordOffset + " (" + capLen
                    + " bytes of packet data announced, " + Math.max(0, in.buffer().remaining() - RECORD_HEADER) + " present)";
            return false;
        }
        b = in.buffer();
        p = b.position();
        frame.set(seconds * 1_000_000_000L + fraction * fractionToNs, 0, linkType, b, p + RECORD_HEADER, capLen,
                Math.max(origLen, capLen), recordOffset);
        in.skip(RECORD_HEADER + capLen);
        return true;
    }

    @Override
    public String format() {
        return "pcap";
    }

    @Override
    public Optional<String> truncation() {
        return Optional.ofNullable(truncation);
    }

    @Override
    public List<String> embeddedKeyLogs() {
        return List.of();
    }

    @Override
    public List<Integer> linkTypes() {
        return List.of(linkType);
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
