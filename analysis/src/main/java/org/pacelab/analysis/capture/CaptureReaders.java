package org.pacelab.analysis.capture;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** Opens a capture file as pcap or pcapng by its magic number. */
public final class CaptureReaders {
    private CaptureReaders() {}

    public static CaptureReader open(Path path) throws IOException {
        return open(path, CaptureInput.DEFAULT_BUFFER);
    }

    /**
     * Reads a capture from a stream as it is written (a simulation's tap, {@code name} its file): pcap or pcapng by
     * its magic number, as {@link #open(Path)} reads the file. An empty or too short stream is a format error here.
     */
    public static CaptureReader open(InputStream stream, Path name) throws IOException {
        CaptureInput in = new CaptureInput(name, Channels.newChannel(stream), CaptureInput.DEFAULT_BUFFER);
        try {
            if (!in.ensure(4)) {
                throw new CaptureFormatException(name, 0, "the stream has too few bytes for a pcap or pcapng header");
            }
            return open(in, name);
        } catch (IOException | RuntimeException e) {
            in.close();
            throw e;
        }
    }

    /** Opens with a given read-buffer size (records larger than it are still read). */
    public static CaptureReader open(Path path, int bufferSize) throws IOException {
        if (!Files.isRegularFile(path)) {
            throw new NoSuchFileException(path.toString(), null, "no such capture file");
        }
        CaptureInput in = new CaptureInput(path, bufferSize);
        try {
            if (in.size() == 0) {
                in.close();
                return new EmptyCapture();
            }
            if (!in.ensure(4)) {
                throw new CaptureFormatException(path, 0, "the file has only " + in.size()
                        + " bytes, too few for a pcap or pcapng header");
            }
            return open(in, path);
        } catch (IOException | RuntimeException e) {
            in.close();
            throw e;
        }
    }

    private static CaptureReader open(CaptureInput in, Path path) throws IOException {
        int magic = in.buffer().order(ByteOrder.BIG_ENDIAN).getInt(in.buffer().position());
        int swapped = Integer.reverseBytes(magic);
        if (magic == PcapngReader.SHB) {
            return new PcapngReader(in);
        }
        if (magic == PcapReader.MAGIC_MICROS || magic == PcapReader.MAGIC_NANOS
                || swapped == PcapReader.MAGIC_MICROS || swapped == PcapReader.MAGIC_NANOS) {
            return new PcapReader(in);
        }
        throw new CaptureFormatException(path, 0, String.format("magic number 0x%08x is neither pcap "
                + "(a1b2c3d4 or a1b23c4d, either byte order) nor pcapng (0a0d0d0a)", magic));
    }

    /** A zero-byte file: no header, no frames; reported as truncated. */
    private static final class EmptyCapture implements CaptureReader {
        @Override
        public boolean next(CapturedFrame frame) {
            return false;
        }

        @Override
        public String format() {
            return "empty";
        }

        @Override
        public Optional<String> truncation() {
            return Optional.of("the file is empty (0 bytes): no capture header and no packets");
        }

        @Override
        public List<String> embeddedKeyLogs() {
            return List.of();
        }

        @Override
        public List<Integer> linkTypes() {
            return List.of();
        }

        @Override
        public void close() {}
    }
}
