package org.pacelab.sim.output;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Function;

import org.pacelab.analysis.qlog.QlogTrace;
import org.pacelab.quic.qlog.QlogJsonSeqWriter;
import org.pacelab.quic.qlog.QlogSink;

/**
 * One JSON-SEQ qlog per connection, named like {@link org.pacelab.io.log.QlogDirectory} names them
 * ({@code <role>-<original DCID>.sqlog}) and written by the same {@link QlogJsonSeqWriter}, with the virtual
 * epoch as {@code reference_time} and virtual time 0 as its base. Files are written as {@code .part} and renamed
 * by {@link #closeAll()}. Unlike a live process's qlog, records are not flushed one by one: the file is written
 * in large blocks, and they are encoded on a thread of their own ({@link QlogWriterThread}), not the run's. With {@link #readFirst()} the analyzer reads the first connection's qlog while it is written
 * ({@link QlogPipe}).
 */
public final class QlogFiles implements Function<byte[], QlogSink> {
    private record Open(QlogSink sink, OutputStream stream, Path part, Path file) {}

    private final Path dir;
    private final String role;
    private final List<Open> open = new ArrayList<>();
    private final boolean readFirst;
    private QlogPipe firstRead;
    /** Writes every qlog of these files, on its own thread; started with the first file. */
    private QlogWriterThread writer;

    public QlogFiles(Path dir, String role) throws IOException {
        this(dir, role, false);
    }

    private QlogFiles(Path dir, String role, boolean readFirst) throws IOException {
        this.dir = Files.createDirectories(dir);
        this.role = role;
        this.readFirst = readFirst;
    }

    /** Files as {@link #QlogFiles(Path, String)}, the first one also read by the analyzer as it is written. */
    public static QlogFiles readFirst(Path dir, String role) throws IOException {
        return new QlogFiles(dir, role, true);
    }

    @Override
    public QlogSink apply(byte[] odcid) {
        String hex = HexFormat.of().formatHex(odcid);
        Path file = dir.resolve(role + "-" + hex + ".sqlog");
        Path part = dir.resolve(role + "-" + hex + ".sqlog.part");
        try {
            OutputStream out = new Named(Files.newOutputStream(part), part);
            if (readFirst && open.isEmpty()) {
                firstRead = new QlogPipe(file);
                out = new Tee(out, firstRead.output());
            }
            OutputStream w = new BufferedOutputStream(out, 1 << 20);
            QlogSink sink = new QlogJsonSeqWriter(w, "pacelab " + role + " " + hex, role, odcid,
                    VirtualEpoch.epochMillis(), 0, true, false);
            if (writer == null) {
                writer = new QlogWriterThread();
            }
            QlogSink deferred = writer.defer(sink);
            open.add(new Open(deferred, w, part, file));
            return deferred;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create qlog file " + part, e);
        }
    }

    /** The finished files (after {@link #closeAll()}). */
    public List<Path> files() {
        return open.stream().map(Open::file).toList();
    }

    /**
     * The traces of the first file as the analyzer reads them (after {@link #closeAll()}), or null when it is not read
     * while written (none was opened, or not asked for).
     */
    public List<QlogTrace> firstTraces() throws IOException {
        return firstRead == null ? null : firstRead.traces();
    }

    /** Closes every qlog (also those whose connection has not closed) and renames it into place. */
    public void closeAll() throws IOException {
        for (Open o : open) {
            o.sink().close();
        }
        if (writer != null) {
            writer.finish(); // every record written (or the writer's failure thrown) before the streams close
        }
        for (Open o : open) {
            o.stream().close();
            Files.move(o.part(), o.file(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
    }

    /** Deletes the partial files and ends the analyzer's reader of the first one (the run failed). */
    public void discard() {
        if (writer != null) {
            writer.abort(); // no more writes to the streams closed below
        }
        if (firstRead != null) {
            firstRead.abort(); // its thread ends whether or not the stream below closes (the pipe's end marker)
        }
        for (Open o : open) {
            try {
                o.stream().close(); // may fail as the writes did (a full disk): the part is deleted all the same
            } catch (IOException | UncheckedIOException e) {
                // nothing else depends on a partial qlog
            }
            try {
                Files.deleteIfExists(o.part());
            } catch (IOException e) {
                // left behind only when the directory itself refuses
            }
        }
    }

    /**
     * A file's stream whose failures name the file ({@code cannot write the qlog FILE: CAUSE}), as the run reports them
     * in one sentence; without it a full disk or a file size limit read "File too large" with no file named.
     */
    static final class Named extends OutputStream {
        private final OutputStream out;
        private final Path file;

        Named(OutputStream out, Path file) {
            this.out = out;
            this.file = file;
        }

        @Override
        public void write(int b) throws IOException {
            try {
                out.write(b);
            } catch (IOException e) {
                throw named(e);
            }
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            try {
                out.write(b, off, len);
            } catch (IOException e) {
                throw named(e);
            }
        }

        @Override
        public void flush() throws IOException {
            try {
                out.flush();
            } catch (IOException e) {
                throw named(e);
            }
        }

        @Override
        public void close() throws IOException {
            try {
                out.close();
            } catch (IOException e) {
                throw named(e);
            }
        }

        private IOException named(IOException e) {
            return new IOException("cannot write the qlog " + file + ": " + e.getMessage(), e);
        }
    }

    /** The file's stream and the reader's: the same bytes to both. */
    private static final class Tee extends OutputStream {
        private final OutputStream file;
        private final OutputStream reader;

        Tee(OutputStream file, OutputStream reader) {
            this.file = file;
            this.reader = reader;
        }

        @Override
        public void write(int b) throws IOException {
            file.write(b);
            reader.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            file.write(b, off, len);
            reader.write(b, off, len);
        }

        @Override
        public void flush() throws IOException {
            file.flush();
        }

        @Override
        public void close() throws IOException {
            try {
                file.close();
            } finally {
                reader.close();
            }
        }
    }
}
