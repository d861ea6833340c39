package org.pacelab.peers.kwik;

import java.io.BufferedOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;

import tech.kwik.core.log.BaseLogger;
import tech.kwik.core.log.Logger;

/**
 * Kwik's own log of a client connection (or of a server), appended to a file, for diagnosis where Kwik writes no
 * qlog: every packet sent and received with its frames, loss recovery, congestion control, info, warnings and debug (where Kwik says why
 * it dropped a packet, e.g. one it could not decrypt), with wall-clock times to the millisecond (Kwik's long format,
 * {@code yy-MM-dd'T'HH:mm:ss.SSS} in the JVM's time zone) to set beside a tap. Kwik's {@code FileLogger} truncates its
 * file and flushes every line; this one appends (one block per connection, each after a header line) and is buffered:
 * written out when the connection's downloads end ({@link #close()}) or the JVM stops (the interop harness's SIGTERM
 * at a case's timeout), so writing it costs Kwik's threads no system call per line.
 */
final class KwikLogFile extends BaseLogger implements AutoCloseable {
    private final PrintStream out;
    private final Thread flushAtExit;

    private KwikLogFile(PrintStream out) {
        this.out = out;
        this.flushAtExit = new Thread(this::flush, "kwik-log flush");
    }

    /** Opens {@code file} for appending and writes {@code header} as the block's first line; everything is logged. */
    static KwikLogFile open(Path file, String header) throws IOException {
        return open(file, header, true);
    }

    /**
     * Opens {@code file} for appending and writes {@code header} as the block's first line. Info, warnings, errors and
     * statistics are always logged; packets, recovery, congestion control and debug only with {@code perPacket} (a
     * server answering 10 MiB writes some 20,000 such lines, which also slows its threads).
     */
    static KwikLogFile open(Path file, String header, boolean perPacket) throws IOException {
        KwikLogFile log = new KwikLogFile(new PrintStream(new BufferedOutputStream(new FileOutputStream(file.toFile(), true),
                1 << 16), false, java.nio.charset.StandardCharsets.UTF_8));
        log.timeFormat(Logger.TimeFormat.Long);
        log.logPackets(perPacket);
        log.logRecovery(perPacket);
        log.logCongestionControl(perPacket);
        log.logDebug(perPacket);
        log.logInfo(true);
        log.logWarning(true);
        log.logStats(true);
        log.log(header);
        Runtime.getRuntime().addShutdownHook(log.flushAtExit);
        return log;
    }

    @Override
    protected synchronized void log(String text) {
        out.println(text);
    }

    @Override
    protected synchronized void log(String text, Throwable error) {
        out.println(text);
        error.printStackTrace(out);
    }

    @Override
    protected synchronized void logWithHexDump(String text, byte[] data, int length) {
        out.println(text);
        out.println(byteToHexBlock(data, length));
    }

    @Override
    protected synchronized void logWithHexDump(String text, ByteBuffer data, int offset, int length) {
        out.println(text);
        out.println(byteToHexBlock(data, offset, length));
    }

    private synchronized void flush() {
        out.flush();
    }

    /** Writes the block out and closes the file (Kwik's threads may still log afterwards: those lines are dropped). */
    @Override
    public synchronized void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(flushAtExit);
        } catch (IllegalStateException e) {
            // the JVM is stopping: the hook flushes
        }
        out.close();
    }
}
