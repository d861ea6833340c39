package org.pacelab.io.app;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.pacelab.quic.content.DownloadOutput;
import org.pacelab.quic.content.DownloadRequest;
import org.pacelab.quic.content.DownloadSink;

/**
 * Stores each download in one output directory under the last segment of its URL path (percent-decoded),
 * never anywhere else: names that are empty, {@code .}, {@code ..} or contain a separator or NUL are
 * refused; other control characters become {@code _}. Bytes go to a temporary file in the same directory,
 * renamed over the final name only when the download completes and deleted when it fails, so a file
 * under the final name is always complete. When two URLs end in the same name, the later completion wins.
 */
public final class FileDownloadSink implements DownloadSink {
    /** The longest file name most Linux file systems accept, in bytes. */
    private static final int MAX_NAME_BYTES = 255;

    private final Path directory;

    /**
     * @throws IOException when the directory cannot be created or resolved
     */
    public FileDownloadSink(Path directory) throws IOException {
        Files.createDirectories(directory);
        this.directory = directory.toRealPath();
    }

    public Path directory() {
        return directory;
    }

    /** The file a download of {@code request} completes into. */
    public Path fileFor(DownloadRequest request) throws IOException {
        List<String> segments;
        try {
            segments = UrlPath.decodedSegments(request.path());
        } catch (UrlPath.MalformedPathException e) {
            throw new IOException("URL path " + request.path() + " is malformed: " + e.getMessage());
        }
        if (segments.isEmpty() || request.path().endsWith("/")) {
            throw new IOException("URL path " + request.path() + " has no file name (its last segment is empty)");
        }
        String name = segments.get(segments.size() - 1);
        String unsafe = UrlPath.unsafeNameReason(name);
        if (unsafe != null) {
            throw new IOException("URL path " + request.path() + " cannot name a file in " + directory
                    + ": its last segment " + unsafe);
        }
        name = sanitize(name);
        if (name.getBytes(StandardCharsets.UTF_8).length > MAX_NAME_BYTES) {
            throw new IOException("URL path " + request.path() + " ends in a name longer than " + MAX_NAME_BYTES
                    + " bytes");
        }
        Path file = directory.resolve(name);
        if (!directory.equals(file.getParent())) {
            throw new IOException("URL path " + request.path() + " would be stored outside " + directory);
        }
        return file;
    }

    @Override
    public DownloadOutput open(DownloadRequest request) throws IOException {
        Path file = fileFor(request);
        Path temp = Files.createTempFile(directory, ".pacelab-", ".part");
        FileChannel channel;
        try {
            channel = FileChannel.open(temp, StandardOpenOption.WRITE);
        } catch (IOException e) {
            Files.deleteIfExists(temp);
            throw e;
        }
        return new FileOutput(channel, temp, file);
    }

    /** Control characters (other than the refused NUL) become '_'. */
    private static String sanitize(String name) {
        StringBuilder sb = new StringBuilder(name.length());
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            sb.append(c < 0x20 || c == 0x7f ? '_' : c);
        }
        return sb.toString();
    }

    /**
     * Gathers the body in a 256 KiB direct buffer and writes it to the file when the buffer is full and at the end: a
     * body arrives in pieces of one packet's payload (about 1.4 kB), and one write system call per piece cost a
     * quarter of a receiving client's CPU time (async-profiler, 1 GiB on loopback). Not larger: on the project VM
     * (Linux 6.18, ext4) writes of 512 KiB and 1 MiB cost the kernel 5-18 times the system time of 32-256 KiB ones
     * for the same GiB ({@code dd}: 1.2 s and 2.7-4.2 s against 0.23-0.27 s), which was 3-7 s of a downloading
     * client's CPU per GiB (docs/benchmarks.md, issue 14, "Where a GiB's CPU goes now").
     */
    private static final class FileOutput implements DownloadOutput {
        static final int BUFFER_BYTES = 256 << 10;
        private final FileChannel channel;
        private final Path temp;
        private final Path file;
        private final ByteBuffer pending = ByteBuffer.allocateDirect(BUFFER_BYTES);

        FileOutput(FileChannel channel, Path temp, Path file) {
            this.channel = channel;
            this.temp = temp;
            this.file = file;
        }

        @Override
        public void write(ByteBuffer data) throws IOException {
            while (data.hasRemaining()) {
                if (!pending.hasRemaining()) {
                    drain();
                }
                int n = Math.min(pending.remaining(), data.remaining());
                pending.put(pending.position(), data, data.position(), n);
                pending.position(pending.position() + n);
                data.position(data.position() + n);
            }
        }

        private void drain() throws IOException {
            pending.flip();
            while (pending.hasRemaining()) {
                channel.write(pending);
            }
            pending.clear();
        }

        @Override
        public void commit() throws IOException {
            try {
                drain();
                channel.close();
                Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException e) {
                abort();
                throw new IOException("could not store the download as " + file + ": " + e.getMessage(), e);
            }
        }

        @Override
        public void abort() {
            pending.clear();
            try {
                channel.close();
            } catch (IOException e) {
                // The temporary file is deleted next; nothing in it is kept.
            }
            try {
                Files.deleteIfExists(temp);
            } catch (IOException e) {
                // Nothing more can be done; the name (.pacelab-*.part) marks it as incomplete.
            }
        }
    }
}
