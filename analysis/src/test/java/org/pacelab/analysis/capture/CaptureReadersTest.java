package org.pacelab.analysis.capture;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.analysis.testing.CaptureFiles;
import org.pacelab.analysis.testing.CaptureFiles.Frame;
import org.pacelab.analysis.testing.CaptureFiles.Interface;

class CaptureReadersTest {
    @TempDir
    Path dir;

    private static final long T = 1_700_000_000_123_456_789L;

    private record Read(long timeNs, int iface, int linkType, byte[] bytes) {}

    private List<Read> readAll(Path file, int bufferSize) throws IOException {
        List<Read> out = new ArrayList<>();
        try (CaptureReader r = CaptureReaders.open(file, bufferSize)) {
            CapturedFrame f = new CapturedFrame();
            while (r.next(f)) {
                byte[] b = new byte[f.capturedLength()];
                f.buffer().get(f.offset(), b);
                out.add(new Read(f.timestampNs(), f.interfaceId(), f.linkType(), b));
            }
        }
        return out;
    }

    private Path write(String name, byte[] bytes) throws IOException {
        return Files.write(dir.resolve(name), bytes);
    }

    @Test
    void pcapWithNanosecondsInBothByteOrders() throws IOException {
        List<Frame> frames = List.of(new Frame(T, new byte[] {1, 2, 3}), new Frame(T + 1, new byte[] {4}));
        for (ByteOrder order : List.of(ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN)) {
            List<Read> r = readAll(write("ns.pcap", CaptureFiles.pcap(order, true, 1, frames)), 4096);
            assertEquals(2, r.size());
            assertEquals(T, r.get(0).timeNs());
            assertEquals(T + 1, r.get(1).timeNs());
            assertArrayEquals(new byte[] {1, 2, 3}, r.get(0).bytes());
            assertEquals(1, r.get(0).linkType());
        }
    }

    @Test
    void pcapWithMicrosecondsKeepsMicrosecondTimestamps() throws IOException {
        List<Read> r = readAll(write("us.pcap", CaptureFiles.pcap(ByteOrder.LITTLE_ENDIAN, false, 101,
                List.of(new Frame(T, new byte[] {9})))), 4096);
        assertEquals(T / 1000 * 1000, r.get(0).timeNs());
        assertEquals(101, r.get(0).linkType());
    }

    @Test
    void recordsLargerThanTheBufferAndSplitAcrossRefillsAreRead() throws IOException {
        List<Frame> frames = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            byte[] b = new byte[1 + (i * 37) % 3000];
            Arrays.fill(b, (byte) i);
            frames.add(new Frame(T + i * 1000L, b));
        }
        Path p = write("many.pcapng", CaptureFiles.pcapngEthernet(frames));
        List<Read> r = readAll(p, 1024); // smaller than some records
        assertEquals(200, r.size());
        for (int i = 0; i < 200; i++) {
            assertArrayEquals(frames.get(i).bytes(), r.get(i).bytes(), "frame " + i);
            assertEquals(T + i * 1000L, r.get(i).timeNs());
        }
    }

    @Test
    void pcapngWithSeveralInterfacesResolutionsAndOffsets() throws IOException {
        for (ByteOrder order : List.of(ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN)) {
            byte[] file = new CaptureFiles.Pcapng(order)
                    .iface(new Interface(1, 9, 0))            // ns
                    .iface(new Interface(113, -1, 0))         // default µs
                    .iface(new Interface(276, 0x80 | 30, 0))  // 2^-30 s
                    .iface(new Interface(101, 3, 1_000))      // ms with a 1000 s offset
                    .packet(new Frame(T, 0, new byte[] {1}))
                    .packet(new Frame(T, 1, new byte[] {2}))
                    .packet(new Frame(T, 2, new byte[] {3}))
                    .packet(new Frame(T, 3, new byte[] {4}))
                    .bytes();
            List<Read> r = readAll(write("multi.pcapng", file), 4096);
            assertEquals(4, r.size());
            assertEquals(T, r.get(0).timeNs());
            assertEquals(1, r.get(0).linkType());
            assertEquals(T / 1000 * 1000, r.get(1).timeNs());
            assertEquals(113, r.get(1).linkType());
            assertTrue(Math.abs(r.get(2).timeNs() - T) <= 1, "2^-30 s resolution: " + r.get(2).timeNs());
            assertEquals(276, r.get(2).linkType());
            assertEquals(T / 1_000_000 * 1_000_000, r.get(3).timeNs());
            assertEquals(3, r.get(3).iface());
        }
    }

    @Test
    void pcapngSectionsResetInterfacesAndSecretsAndSimpleBlocksAreReported() throws IOException {
        byte[] file = new CaptureFiles.Pcapng(ByteOrder.LITTLE_ENDIAN)
                .iface(new Interface(1))
                .secrets("CLIENT_TRAFFIC_SECRET_0 " + "ab".repeat(32) + " " + "cd".repeat(32) + "\n")
                .packet(new Frame(T, new byte[] {1}))
                .simplePacket(new byte[] {5, 5})
                .section()
                .iface(new Interface(101))
                .packet(new Frame(T + 5, new byte[] {2}))
                .bytes();
        Path p = write("sections.pcapng", file);
        try (CaptureReader r = CaptureReaders.open(p)) {
            CapturedFrame f = new CapturedFrame();
            assertTrue(r.next(f));
            assertEquals(1, f.linkType());
            assertTrue(r.next(f));
            assertEquals(101, f.linkType());
            assertEquals(T + 5, f.timestampNs());
            assertFalse(r.next(f));
            assertEquals(1, r.embeddedKeyLogs().size());
            assertTrue(r.embeddedKeyLogs().getFirst().startsWith("CLIENT_TRAFFIC_SECRET_0"));
            assertEquals(List.of(1, 101), r.linkTypes());
            assertTrue(r.notes().getFirst().contains("1 Simple Packet Block"));
            assertTrue(r.truncation().isEmpty());
        }
    }

    @Test
    void truncatedPcapEndsWithATruncationNamingTheOffset() throws IOException {
        byte[] full = CaptureFiles.pcap(ByteOrder.LITTLE_ENDIAN, true, 1,
                List.of(new Frame(T, new byte[100]), new Frame(T + 1, new byte[100])));
        Path p = write("cut.pcap", Arrays.copyOf(full, full.length - 10));
        try (CaptureReader r = CaptureReaders.open(p)) {
            CapturedFrame f = new CapturedFrame();
            assertTrue(r.next(f));
            assertFalse(r.next(f));
            String t = r.truncation().orElseThrow();
            assertTrue(t.contains("byte offset 140"), t); // 24 + 16 + 100
        }
    }

    @Test
    void truncatedPcapngBlockIsReported() throws IOException {
        byte[] full = CaptureFiles.pcapngEthernet(List.of(new Frame(T, new byte[64]), new Frame(T + 1, new byte[64])));
        Path p = write("cut.pcapng", Arrays.copyOf(full, full.length - 3));
        List<Read> r = readAll(p, 4096);
        assertEquals(1, r.size());
        try (CaptureReader reader = CaptureReaders.open(p)) {
            CapturedFrame f = new CapturedFrame();
            while (reader.next(f)) {
                assertTrue(f.capturedLength() > 0);
            }
            assertTrue(reader.truncation().orElseThrow().contains("ends inside a block"));
        }
    }

    /** A pcap header with a 64 MiB snap length and one record header announcing {@code capLen}, then {@code data} bytes. */
    private static byte[] longRecordPcap(int capLen, int data) {
        return ByteBuffer.allocate(24 + 16 + data).order(ByteOrder.BIG_ENDIAN)
                .putInt(PcapReader.MAGIC_MICROS).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0)
                .putInt(0x04000000).putInt(1)
                .putInt(1).putInt(0).putInt(capLen).putInt(capLen)
                .array();
    }

    /**
     * A record announcing more than the rest of the file is a truncation, and the read buffer grows at most to the
     * rest of the file for it (fuzz audit: a 40-byte pcap announcing 64 MiB took 64 MiB of direct memory per read).
     */
    @Test
    void aRecordLongerThanTheRestOfTheFileIsATruncationWithoutGrowingTheBuffer() throws IOException {
        Path p = write("long-record.pcap", longRecordPcap(0x03FFFFF0, 0));
        try (CaptureReader r = CaptureReaders.open(p, 4096)) {
            assertFalse(r.next(new CapturedFrame()));
            assertEquals("the file ends inside the record at byte offset 24 (67108848 bytes of packet data announced, 0 present)",
                    r.truncation().orElseThrow());
        }
        try (CaptureInput in = new CaptureInput(p, 4096)) {
            assertTrue(in.ensure(24));
            in.skip(24);
            assertFalse(in.ensure(16 + 0x03FFFFF0));
            assertEquals(4096, in.buffer().capacity());
            assertEquals(16, in.buffer().remaining());
        }
        Path q = write("longer-record.pcap", longRecordPcap(20_000, 10_000));
        try (CaptureInput in = new CaptureInput(q, 4096)) {
            assertTrue(in.ensure(24));
            in.skip(24);
            assertFalse(in.ensure(16 + 20_000));
            assertEquals(16 + 10_000, in.buffer().capacity(), "as far as the file reaches, not as far as the record claims");
            assertEquals(16 + 10_000, in.buffer().remaining());
        }
        byte[] pcapng = ByteBuffer.allocate(40).order(ByteOrder.BIG_ENDIAN)
                .putInt(PcapngReader.SHB).putInt(28).putInt(0x1A2B3C4D).putShort((short) 1).putShort((short) 0).putLong(-1).putInt(28)
                .putInt(6).putInt(0x03FFFFFC).putInt(0)
                .array();
        try (CaptureReader r = CaptureReaders.open(write("long-block.pcapng", pcapng), 4096)) {
            assertFalse(r.next(new CapturedFrame()));
            assertEquals("the file ends inside a block of type 0x6 at byte offset 28 (67108860 bytes announced, 12 present)",
                    r.truncation().orElseThrow());
        }
    }

    @Test
    void pcapngObsoletePacketBlocksReadLikeEnhancedOnes() throws IOException {
        for (ByteOrder order : List.of(ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN)) {
            byte[] file = new CaptureFiles.Pcapng(order)
                    .iface(new Interface(1, 9, 0))
                    .iface(new Interface(113, -1, 0))
                    .packet(new Frame(T, 0, new byte[] {1, 2}))
                    .obsoletePacket(new Frame(T + 1, 1, new byte[] {3, 4, 5}))
                    .bytes();
            List<Read> r = readAll(write("obsolete.pcapng", file), 4096);
            assertEquals(2, r.size());
            assertEquals(1, r.get(1).iface());
            assertEquals(113, r.get(1).linkType());
            assertEquals((T + 1) / 1000 * 1000, r.get(1).timeNs());
            assertArrayEquals(new byte[] {3, 4, 5}, r.get(1).bytes());
        }
    }

    @Test
    void pcapngObsoletePacketBlockTooShortForItsCapturedLengthIsAnError() throws IOException {
        byte[] file = new CaptureFiles.Pcapng(ByteOrder.BIG_ENDIAN).iface(new Interface(1, 9, 0))
                .obsoletePacket(new Frame(T, 0, new byte[] {1, 2, 3, 4})).bytes();
        int block = file.length - (32 + 4);
        file[block + 20 + 3] = 9; // captured length 9 in a block with room for 4
        Path p = write("short.pcapng", file);
        try (CaptureReader r = CaptureReaders.open(p)) {
            CaptureFormatException e = assertThrows(CaptureFormatException.class, () -> r.next(new CapturedFrame()));
            assertTrue(e.getMessage().contains("captured length 9 does not fit in the Packet Block of 36 bytes"),
                    e.getMessage());
        }
    }

    @Test
    void corruptPcapngBlockLengthIsAnErrorWithTheOffset() throws IOException {
        byte[] file = CaptureFiles.pcapngEthernet(List.of(new Frame(T, new byte[8]), new Frame(T + 1, new byte[8])));
        int second = file.length - (32 + 8); // the last Enhanced Packet Block: 32 bytes of fields and 8 of data
        file[second + 4] = 13; // not a multiple of 4
        Path p = write("bad.pcapng", file);
        try (CaptureReader r = CaptureReaders.open(p)) {
            CapturedFrame f = new CapturedFrame();
            assertTrue(r.next(f));
            CaptureFormatException e = assertThrows(CaptureFormatException.class, () -> r.next(f));
            assertEquals(second, e.byteOffset());
            assertTrue(e.getMessage().contains("byte offset " + second), e.getMessage());
        }
    }

    @Test
    void unknownMagicNamesTheValidFormats() throws IOException {
        Path p = write("text.pcap", "hello world, not a capture".getBytes());
        CaptureFormatException e = assertThrows(CaptureFormatException.class, () -> CaptureReaders.open(p));
        assertTrue(e.getMessage().contains("a1b2c3d4") && e.getMessage().contains("0a0d0d0a"), e.getMessage());
    }

    @Test
    void emptyFileIsAnEmptyTruncatedCapture() throws IOException {
        Path p = write("empty.pcap", new byte[0]);
        try (CaptureReader r = CaptureReaders.open(p)) {
            assertFalse(r.next(new CapturedFrame()));
            assertTrue(r.truncation().orElseThrow().contains("empty"));
            assertEquals("empty", r.format());
        }
    }

    @Test
    void headerOnlyCaptureHasNoFramesAndNoTruncation() throws IOException {
        Path p = write("none.pcap", CaptureFiles.pcap(ByteOrder.LITTLE_ENDIAN, true, 1, List.of()));
        try (CaptureReader r = CaptureReaders.open(p)) {
            assertFalse(r.next(new CapturedFrame()));
            assertTrue(r.truncation().isEmpty());
        }
    }
}
