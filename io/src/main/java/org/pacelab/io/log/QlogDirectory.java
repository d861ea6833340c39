package org.pacelab.io.log;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.function.Function;

import org.pacelab.quic.qlog.QlogJsonSeqWriter;
import org.pacelab.quic.qlog.QlogSink;

/**
 * Creates one JSON-SEQ qlog file per connection in a directory ({@code QLOGDIR}), named
 * {@code <role>-<original DCID>.sqlog}, with the wall-clock reference time taken when the connection starts.
 * Every record is flushed to the file as it is written, so a process that is killed leaves whole records.
 */
public final class QlogDirectory implements Function<byte[], QlogSink> {
    private final Path dir;
    private final String role;
    private final boolean logFrames;

    public QlogDirectory(Path dir, String role, boolean logFrames) throws IOException {
        this.dir = Files.createDirectories(dir);
        this.role = role;
        this.logFrames = logFrames;
    }

    /** The directory named by QLOGDIR, or null when unset. */
    public static QlogDirectory fromEnvironment(String role) throws IOException {
        String d = System.getenv("QLOGDIR");
        return d == null || d.isBlank() ? null : new QlogDirectory(Path.of(d), role, true);
    }

    public Path directory() { return dir; }

    @Override
    public QlogSink apply(byte[] odcid) {
        String hex = HexFormat.of().formatHex(odcid);
        Path file = dir.resolve(role + "-" + hex + ".sqlog");
        try {
            OutputStream w = Files.newOutputStream(file); // the JSON generator buffers each record
            long baseNanos = System.nanoTime();
            java.time.Instant wall = java.time.Instant.now();
            double referenceMs = wall.getEpochSecond() * 1000.0 + wall.getNano() / 1e6;
            return new QlogJsonSeqWriter(w, "pacelab " + role + " " + hex, role, odcid, referenceMs, baseNanos, logFrames, true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create qlog file " + file, e);
        }
    }
}
