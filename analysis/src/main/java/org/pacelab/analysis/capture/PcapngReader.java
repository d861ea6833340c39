package org.pacelab.analysis.capture;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * pcapng files (draft-ietf-opsawg-pcapng): several sections and interfaces, {@code if_tsresol} and
 * {@code if_tsoffset}, Enhanced, obsolete and Simple Packet Blocks, and Decryption Secrets Blocks holding
 * an NSS key log.
 */
final class PcapngReader implements CaptureReader {
    static final int SHB = 0x0A0D0D0A;
    private static final int BYTE_ORDER_MAGIC = 0x1A2B3C4D;
    private static final int IDB = 1;
    private static final int OBSOLETE_PB = 2;
    private static final int SPB = 3;
    private static final int EPB = 6;
    private static final int DSB = 0x0A;
    private static final int SECRETS_TLS_KEY_LOG = 0x544c534b;
    private static final int OPT_TSRESOL = 9;
    private static final int OPT_TSOFFSET = 14;

    private final CaptureInput in;
    private final List<Interface> interfaces = new ArrayList<>();
    private final List<Integer> linkTypes = new ArrayList<>();
    private final List<String> keyLogs = new ArrayList<>();
    private String truncation;
    private long simplePacketBlocks;

    private record Interface(int linkType, int snapLength, TimestampResolution resolution) {}

    PcapngReader(CaptureInput in) {
        this.in = in;
    }

    @Override
    public boolean next(CapturedFrame frame) throws IOException {
        while (true) {
            long blockOffset = in.offset();
            if (!in.ensure(12)) {
                if (in.buffer().hasRemaining()) {
                    truncation = "the file ends inside a block header at byte offset " + blockOffset + " ("
                            + in.buffer().remaining() + " bytes present)";
                }
                return false;
            }
            ByteBuffer b = in.buffer();
            int p = b.position();
            int type = b.getInt(p);
            if (type == SHB) {
                readByteOrder(blockOffset);
                b = in.buffer();
                p = b.position();
            }
            int length = b.getInt(p + 4);
            if (length < 12 || (length & 3) != 0) {
                throw new CaptureFormatException(in.path(), blockOffset, "block total length " + Integer.toUnsignedString(length)
                        + " is invalid (must be a multiple of 4 and at least 12); the file is corrupt here");
            }
            if (!in.ensure(length)) {
                truncation = "the file ends inside a block of type 0x" + Integer.toHexString(type) + " at byte offset "
                        + blockOffset + " (" + length + " bytes announced, " + in.buffer().remaining() + " present)";
                return false;
            }
            b = in.buffer();
            p = b.position();
            if (b.getInt(p + length - 4) != length) {
                throw new CaptureFormatException(in.path(), blockOffset, "the trailing block length "
                        + Integer.toUnsignedString(b.getInt(p + length - 4)) + " differs from the leading one " + length
                        + "; the file is corrupt here");
            }
            boolean delivered = switch (type) {
                case SHB -> {
                    interfaces.clear();
                    yield false;
                }
                case IDB -> {
                    readInterface(b, p, length, blockOffset);
                    yield false;
                }
                case EPB -> readEnhancedPacket(b, p, length, blockOffset, frame);
                case OBSOLETE_PB -> readObsoletePacket(b, p, length, blockOffset, frame);
                case SPB -> {
                    simplePacketBlocks++;
                    yield false;
                }
                case DSB -> {
                    readSecrets(b, p, length, blockOffset);
                    yield false;
                }
                default -> false;
            };
            in.skip(length);
            if (delivered) {
                return true;
            }
        }
    }

    private void readByteOrder(long blockOffset) throws IOException {
        if (!in.ensure(12)) {
            return;
        }
        ByteBuffer b = in.buffer();
        int p = b.position();
        b.order(ByteOrder.BIG_ENDIAN);
        int magic = b.getInt(p + 8);
        if (magic == BYTE_ORDER_MAGIC) {
            return;
        }
        if (Integer.reverseBytes(magic) == BYTE_ORDER_MAGIC) {
            b.order(ByteOrder.LITTLE_ENDIAN);
            return;
        }
        throw new CaptureFormatException(in.path(), blockOffset + 8, "section header byte-order magic is 0x"
                + Integer.toHexString(magic) + ", expected 0x1a2b3c4d in either byte order");
    }

    private void readInterface(ByteBuffer b, int p, int length, long blockOffset) throws CaptureFormatException {
        if (length < 20) {
            throw new CaptureFormatException(in.path(), blockOffset, "Interface Description Block of " + length
                    + " bytes is shorter than its 20-byte minimum");
        }
        int linkType = b.getShort(p + 8) & 0xffff;
        int snapLength = b.getInt(p + 12);
        int tsresol = 6;
        long tsoffset = 0;
        int o = p + 16;
        int end = p + length - 4;
        while (o + 4 <= end) {
            int code = b.getShort(o) & 0xffff;
            int len = b.getShort(o + 2) & 0xffff;
            if (code == 0 || o + 4 + len > end) {
                break;
            }
            if (code == OPT_TSRESOL && len >= 1) {
                tsresol = b.get(o + 4) & 0xff;
            } else if (code == OPT_TSOFFSET && len >= 8) {
                tsoffset = b.getLong(o + 4);
            }
            o += 4 + ((len + 3) & ~3);
        }
        TimestampResolution res = TimestampResolution.ofOption(tsresol, tsoffset);
        if (res == null) {
            throw new CaptureFormatException(in.path(), blockOffset, "if_tsresol 0x" + Integer.toHexString(tsresol)
                    + " is out of range (valid: 10^-0..10^-18 or 2^-0..2^-63)");
        }
        interfaces.add(new Interface(linkType, snapLength, res));
        if (!linkTypes.contains(linkType)) {
            linkTypes.add(linkType);
        }
    }

    private Interface interfaceOf(int id, long blockOffset) throws CaptureFormatException {
        if (id < 0 || id >= interfaces.size()) {
            throw new CaptureFormatException(in.path(), blockOffset, "packet block names interface " + id
                    + " but the section describes " + interfaces.size() + " interface(s)");
        }
        return interfaces.get(id);
    }

    /** Enhanced Packet Block (pcapng §4.3): a 32-bit interface id. */
    private boolean readEnhancedPacket(ByteBuffer b, int p, int length, long blockOffset, CapturedFrame frame)
            throws CaptureFormatException {
        checkPacketBlockLength(length, blockOffset, "Enhanced Packet Block");
        return readPacket(b, p, length, blockOffset, frame, b.getInt(p + 8), "Enhanced Packet Block");
    }

    /** The obsolete Packet Block (pcapng Appendix A): a 16-bit interface id, then a 16-bit drops count. */
    private boolean readObsoletePacket(ByteBuffer b, int p, int length, long blockOffset, CapturedFrame frame)
            throws CaptureFormatException {
        checkPacketBlockLength(length, blockOffset, "Packet Block");
        return readPacket(b, p, length, blockOffset, frame, b.getShort(p + 8) & 0xffff, "Packet Block");
    }

    private void checkPacketBlockLength(int length, long blockOffset, String blockName) throws CaptureFormatException {
        if (length < 32) {
            throw new CaptureFormatException(in.path(), blockOffset, blockName + " of " + length
                    + " bytes is shorter than its 32-byte minimum");
        }
    }

    /** What both packet blocks share after the interface id: timestamp, captured and original length, data. */
    private boolean readPacket(ByteBuffer b, int p, int length, long blockOffset, CapturedFrame frame, int id,
            String blockName) throws CaptureFormatException {
        Interface itf = interfaceOf(id, blockOffset);
        long ts = ((b.getInt(p + 12) & 0xffffffffL) << 32) | (b.getInt(p + 16) & 0xffffffffL);
        int capLen = b.getInt(p + 20);
        int origLen = b.getInt(p + 24);
        if (capLen < 0 || capLen > length - 32) {
            throw new CaptureFormatException(in.path(), blockOffset, "captured length " + Integer.toUnsignedString(capLen)
                    + " does not fit in the " + blockName + " of " + length + " bytes");
        }
        frame.set(itf.resolution().toNanos(ts), id, itf.linkType(), b, p + 28, capLen, Math.max(origLen, capLen),
                blockOffset);
        return true;
    }

    private void readSecrets(ByteBuffer b, int p, int length, long blockOffset) throws CaptureFormatException {
        int secretsType = b.getInt(p + 8);
        int secretsLength = b.getInt(p + 12);
        if (secretsLength < 0 || secretsLength > length - 20) {
            throw new CaptureFormatException(in.path(), blockOffset, "secrets length " + Integer.toUnsignedString(secretsLength)
                    + " does not fit in the Decryption Secrets Block of " + length + " bytes");
        }
        if (secretsType == SECRETS_TLS_KEY_LOG) {
            byte[] text = new byte[secretsLength];
            b.get(p + 16, text);
            keyLogs.add(new String(text, StandardCharsets.US_ASCII));
        }
    }

    @Override
    public String format() {
        return "pcapng";
    }

    @Override
    public Optional<String> truncation() {
        return Optional.ofNullable(truncation);
    }

    @Override
    public List<String> embeddedKeyLogs() {
        return Collections.unmodifiableList(keyLogs);
    }

    @Override
    public List<Integer> linkTypes() {
        return Collections.unmodifiableList(linkTypes);
    }

    @Override
    public List<String> notes() {
        return simplePacketBlocks == 0 ? List.of() : List.of(simplePacketBlocks
                + " Simple Packet Block(s) skipped: they carry no timestamp, so they cannot enter timing metrics");
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
