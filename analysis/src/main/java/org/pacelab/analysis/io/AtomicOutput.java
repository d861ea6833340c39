package org.pacelab.analysis.io;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * A text file written over time (e.g. while a capture streams by) that appears at its path only when
 * {@link #commit()} is called; closing without commit removes the partial file.
 */
public final class AtomicOutput implements AutoCloseable {
    private final Path target;
    private final Path tmp;
    private final Writer writer;
    private boolean committed;

    public AtomicOutput(Path target) throws IOException {
        this.target = target.toAbsolutePath();
        Files.createDirectories(this.target.getParent());
        this.tmp = Files.createTempFile(this.target.getParent(), "." + this.target.getFileName(), ".tmp");
        this.writer = new BufferedWriter(new OutputStreamWriter(Files.newOutputStream(tmp), StandardCharsets.UTF_8), 1 << 16);
    }

    public Writer writer() {
        return writer;
    }

    /** Flushes and renames the file into place. */
    public void commit() throws IOException {
        writer.close();
        try {
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
        }
        committed = true;
    }

    @Override
    public void close() throws IOException {
        if (!committed) {
            writer.close();
            Files.deleteIfExists(tmp);
        }
    }
}
