package org.pacelab.sim.output;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.quic.qlog.QlogSink;

/**
 * QlogFiles: a qlog file's write failure names the file (the run reports it as one sentence), the bytes pass unchanged
 * otherwise, and a discarded run leaves no partial qlog behind.
 */
class QlogFilesTest {
    @TempDir
    Path dir;

    /** A stream that fails every call as a full disk or a file size limit does. */
    private static final class Refusing extends OutputStream {
        @Override
        public void write(int b) throws IOException {
            throw new IOException("File too large");
        }

        @Override
        public void flush() throws IOException {
            throw new IOException("File too large");
        }

        @Override
        public void close() throws IOException {
            throw new IOException("No space left on device");
        }
    }

    @Test
    void aWriteFailureNamesTheFileAndKeepsItsCause() {
        Path file = dir.resolve("server-0a0b.sqlog.part");
        QlogFiles.Named named = new QlogFiles.Named(new Refusing(), file);
        IOException single = assertThrows(IOException.class, () -> named.write(1));
        assertEquals("cannot write the qlog " + file + ": File too large", single.getMessage());
        assertEquals("File too large", single.getCause().getMessage());
        IOException bulk = assertThrows(IOException.class, () -> named.write(new byte[8], 0, 8));
        assertEquals("cannot write the qlog " + file + ": File too large", bulk.getMessage());
        IOException flush = assertThrows(IOException.class, named::flush);
        assertEquals("cannot write the qlog " + file + ": File too large", flush.getMessage());
        IOException close = assertThrows(IOException.class, named::close);
        assertEquals("cannot write the qlog " + file + ": No space left on device", close.getMessage());
    }

    @Test
    void theBytesPassUnchanged() throws IOException {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        try (QlogFiles.Named named = new QlogFiles.Named(sink, dir.resolve("x.sqlog.part"))) {
            named.write('{');
            named.write("abc".getBytes(), 1, 2);
            named.flush();
        }
        assertArrayEquals("{bc".getBytes(), sink.toByteArray());
    }

    @Test
    void aDiscardedRunLeavesNoPartialQlog() throws IOException {
        QlogFiles files = new QlogFiles(dir, "server");
        QlogSink sink = files.apply(new byte[] {1, 2, 3, 4});
        assertTrue(sink != null);
        Path part = dir.resolve("server-01020304.sqlog.part");
        assertTrue(Files.exists(part));
        files.discard();
        assertFalse(Files.exists(part));
        assertFalse(Files.exists(dir.resolve("server-01020304.sqlog")));
    }
}
