package org.pacelab.net.pcap;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Walks the blocks of a pcapng file written by {@link PcapngWriter} (tests only). */
public final class PcapngTestReader {
    private PcapngTestReader() {}

    public record Epb(long timestamp, int capLen, int origLen, byte[] data) { }

    public static List<Epb> packets(Path file) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        List<Epb> out = new ArrayList<>();
        while (b.remaining() >= 12) {
            int start = b.position();
            int type = b.getInt(start), len = b.getInt(start + 4);
            if (len < 12 || len % 4 != 0 || len > b.remaining()) throw new IOException("bad block at " + start);
            if (b.getInt(start + len - 4) != len) throw new IOException("trailing length mismatch at " + start);
            if (type == 6) {
                long ts = ((long) b.getInt(start + 12) << 32) | (b.getInt(start + 16) & 0xffffffffL);
                int cap = b.getInt(start + 20), orig = b.getInt(start + 24);
                byte[] data = new byte[cap];
                b.get(start + 28, data);
                out.add(new Epb(ts, cap, orig, data));
            }
            b.position(start + len);
        }
        if (b.hasRemaining()) throw new IOException(b.remaining() + " trailing bytes");
        return out;
    }
}
