package org.pacelab.io.runtime;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

import org.pacelab.quic.content.DownloadResult;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;

/**
 * The client's report of a run: one line per download for people, and a JSON log for the analyzer
 * ({@code docs/analysis-summary-schema.md}: {@code wall_time_ns} and per-transfer {@code request_ns},
 * {@code first_byte_ns}, {@code last_byte_ns} relative to the client process start).
 */
public final class ClientLog {
    private ClientLog() {}

    /** One human-readable line: target, status, bytes, time to first byte, transfer time, goodput. */
    public static String describe(DownloadResult r) {
        String target = r.request().target();
        if (!r.succeeded()) {
            return target + ": FAILED after " + r.bodyBytes() + " bytes: " + r.error();
        }
        long t = r.transferNanos();
        double mbps = t > 0 ? r.bodyBytes() * 8.0 / (t / 1e9) / 1e6 : 0;
        return String.format(Locale.ROOT, "%s: status %d, %d bytes, ttfb %.3f ms, transfer %.3f ms, goodput %.2f Mbit/s",
                target, r.status(), r.bodyBytes(), r.timeToFirstByteNanos() / 1e6, t / 1e6, mbps);
    }

    /** Writes the JSON log atomically (temporary file, then rename). */
    public static void write(Path file, QuicClient.Outcome o, long processStart, long processEnd) throws IOException {
        Path abs = file.toAbsolutePath();
        Files.createDirectories(abs.getParent());
        Path tmp = abs.resolveSibling(abs.getFileName() + ".tmp");
        try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8);
             JsonGenerator g = new JsonFactory().createGenerator(w)) {
            g.useDefaultPrettyPrinter();
            g.writeStartObject();
            g.writeNumberField("wall_time_ns", processEnd - processStart);
            g.writeNumberField("handshake_ns", o.handshakeNanos());
            g.writeBooleanField("timed_out", o.timedOut());
            g.writeNumberField("close_error", o.closeError());
            g.writeStringField("close_reason", o.closeReason());
            g.writeArrayFieldStart("transfers");
            for (DownloadResult r : o.results()) {
                g.writeStartObject();
                g.writeStringField("url", "https://" + r.request().authority() + r.request().target());
                g.writeNumberField("stream_id", r.streamId());
                g.writeNumberField("status", r.status());
                g.writeNumberField("bytes", r.bodyBytes());
                g.writeNumberField("request_ns", rel(r.requestSentNanos(), processStart));
                g.writeNumberField("first_byte_ns", rel(r.firstByteNanos(), processStart));
                g.writeNumberField("last_byte_ns", rel(r.lastByteNanos(), processStart));
                if (r.error() != null) {
                    g.writeStringField("error", r.error());
                }
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static long rel(long t, long start) {
        return t < 0 ? -1 : t - start;
    }
}
