package org.pacelab.io.log;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.pacelab.quic.tls.KeyLogSink;

/** Appends TLS secrets to an NSS key log file (the SSLKEYLOGFILE format Wireshark reads), a line at a time. */
public final class KeyLogFile implements KeyLogSink, AutoCloseable {
    private final BufferedWriter out;

    public KeyLogFile(Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        this.out = Files.newBufferedWriter(file, StandardCharsets.US_ASCII, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    @Override
    public synchronized void log(String label, byte[] clientRandom, byte[] secret) {
        try {
            out.write(KeyLogSink.line(label, clientRandom, secret));
            out.newLine();
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the key log", e);
        }
    }

    @Override
    public synchronized void close() throws IOException {
        out.close();
    }
}
