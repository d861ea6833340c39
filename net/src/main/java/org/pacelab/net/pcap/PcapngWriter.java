package org.pacelab.net.pcap;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.function.Consumer;

import org.pacelab.net.file.BlockFile;

/**
 * Writes a pcapng file (draft-ietf-opsawg-pcapng) with one interface whose timestamps are nanoseconds
 * ({@code if_tsresol} = 9). The file is written as {@code FILE.part} and renamed to {@code FILE} on close;
 * only whole blocks are ever written, so a {@code .part} left by a crash is a valid capture up to its last
 * flushed packet. Single-threaded.
 */
public final class PcapngWriter implements AutoCloseable {
    /** LINKTYPE_RAW: the packet starts with an IPv4 or IPv6 header. */
    public static final int LINKTYPE_RAW = 101;
    /** LINKTYPE_ETHERNET. */
    public static final int LINKTYPE_ETHERNET = 1;

    private final BlockFile file;
    private final ByteBuffer buf;
    private final int snaplen;
    private long packets;

    /**
     * @param linkType LINKTYPE_RAW or LINKTYPE_ETHERNET
     * @param snaplen  bytes kept of each packet (0 = all)
     */
    public PcapngWriter(Path target, int linkType, int snaplen, String interfaceName) throws IOException {
        this(target, linkType, snaplen, interfaceName, null);
    }

    /**
     * As {@link #PcapngWriter(Path, int, int, String)}; {@code copy} (null: none) is given every block of the file's
     * bytes, in order, before it is written (a read-only view, valid during the call): a reader of the capture while
     * it is written.
     */
    public PcapngWriter(Path target, int linkType, int snaplen, String interfaceName, Consumer<ByteBuffer> copy) throws IOException {
        this.snaplen = snaplen <= 0 ? 262144 : snaplen;
        this.file = new BlockFile(target, 1 << 20, ByteOrder.LITTLE_ENDIAN, "capture", copy);
        this.buf = file.buffer();
        writeSectionHeader();
        writeInterfaceDescription(linkType, interfaceName);
        flush();
    }

    private void writeSectionHeader() {
        byte[] app = "pacelab".getBytes(StandardCharsets.UTF_8);
        int optLen = 4 + pad4(app.length) + 4;
        int total = 28 + optLen;
        buf.putInt(0x0A0D0D0A).putInt(total).putInt(0x1A2B3C4D).putShort((short) 1).putShort((short) 0).putLong(-1L);
        putOption(4, app); // shb_userappl
        buf.putInt(0); // opt_endofopt
        buf.putInt(total);
    }

    private void writeInterfaceDescription(int linkType, String name) {
        byte[] n = name.getBytes(StandardCharsets.UTF_8);
        int optLen = 4 + pad4(n.length) + 4 + 4 + 4;
        int total = 20 + optLen;
        buf.putInt(1).putInt(total).putShort((short) linkType).putShort((short) 0).putInt(snaplen);
        putOption(2, n); // if_name
        buf.putShort((short) 9).putShort((short) 1).put((byte) 9).put((byte) 0).putShort((short) 0); // if_tsresol = 10^-9
        buf.putInt(0);
        buf.putInt(total);
    }

    private void putOption(int code, byte[] value) {
        buf.putShort((short) code).putShort((short) value.length).put(value);
        for (int i = value.length; i < pad4(value.length); i++) buf.put((byte) 0);
    }

    private static int pad4(int n) { return (n + 3) & ~3; }

    /**
     * Appends an Enhanced Packet Block.
     *
     * @param epochNanos capture time in ns since the Unix epoch
     * @param header     bytes to put before the payload (e.g. synthesized IP/UDP headers), may be empty
     * @param payload    packet bytes (position to limit); not modified
     */
    public void write(long epochNanos, byte[] header, ByteBuffer payload) {
        int origLen = header.length + payload.remaining();
        int capLen = Math.min(origLen, snaplen);
        int total = 32 + pad4(capLen);
        file.ensure(total);
        buf.putInt(6).putInt(total).putInt(0).putInt((int) (epochNanos >>> 32)).putInt((int) epochNanos)
                .putInt(capLen).putInt(origLen);
        int h = Math.min(header.length, capLen);
        buf.put(header, 0, h);
        int p = capLen - h;
        if (p > 0) buf.put(payload.duplicate().limit(payload.position() + p));
        for (int i = capLen; i < pad4(capLen); i++) buf.put((byte) 0);
        buf.putInt(total);
        packets++;
    }

    public long packets() { return packets; }

    /** Writes the buffered blocks to the file. */
    public void flush() { file.flush(); }

    /** Syncs the written part of the file in the background every {@code everyBytes} ({@link BlockFile#syncAhead}). */
    public void syncAhead(long everyBytes) { file.syncAhead(everyBytes); }

    public Path path() { return file.path(); }

    /** Closes and deletes the partial file (the run never started). */
    public void discard() { file.discard(); }

    @Override
    public void close() throws IOException { file.close(); }
}
