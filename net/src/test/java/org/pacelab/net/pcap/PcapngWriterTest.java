package org.pacelab.net.pcap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PcapngWriterTest {
    @Test
    void writesWholeBlocksAndRenamesOnClose(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("tap.pcapng");
        byte[] payload = new byte[1200];
        for (int i = 0; i < payload.length; i++) payload[i] = (byte) i;
        InetSocketAddress src = new InetSocketAddress("127.0.0.1", 4433), dst = new InetSocketAddress("127.0.0.1", 50000);
        try (PcapngWriter w = new PcapngWriter(file, PcapngWriter.LINKTYPE_RAW, 100, "tap")) {
            ByteBuffer p = ByteBuffer.wrap(payload);
            w.write(1_700_000_000_123_456_789L, IpUdpHeaders.build(src, dst, p), p);
            w.write(1_700_000_000_123_456_790L, IpUdpHeaders.build(src, dst, p), p);
            w.flush();
            // a crash now leaves a valid partial capture
            assertEquals(2, PcapngTestReader.packets(dir.resolve("tap.pcapng.part")).size());
        }
        assertTrue(Files.exists(file));
        List<PcapngTestReader.Epb> pk = PcapngTestReader.packets(file);
        assertEquals(1_700_000_000_123_456_789L, pk.get(0).timestamp());
        assertEquals(100, pk.get(0).capLen());
        assertEquals(1228, pk.get(0).origLen());
        assertEquals(0x45, pk.get(0).data()[0]);
    }

    @Test
    void headerChecksumsVerify() {
        byte[] payload = {1, 2, 3, 4, 5};
        byte[] h = IpUdpHeaders.build(new InetSocketAddress("10.0.0.1", 1234), new InetSocketAddress("10.0.0.2", 80),
                ByteBuffer.wrap(payload));
        long s = 0;
        for (int i = 0; i < 20; i += 2) s += ((h[i] & 0xff) << 8) | (h[i + 1] & 0xff);
        while ((s >>> 16) != 0) s = (s & 0xffff) + (s >>> 16);
        assertEquals(0xffff, s); // a valid IPv4 header sums to all ones
        byte[] h6 = IpUdpHeaders.build(new InetSocketAddress("::1", 1234), new InetSocketAddress("::1", 80), ByteBuffer.wrap(payload));
        assertEquals(48, h6.length);
        assertEquals(0x60, h6[0] & 0xf0);
    }
}
