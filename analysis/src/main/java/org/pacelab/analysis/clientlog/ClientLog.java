package org.pacelab.analysis.clientlog;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The JSON log of {@code pacelab client --json FILE}:
 * {@code {"wall_time_ns":N,"transfers":[{"url":..,"bytes":N,"request_ns":N,"first_byte_ns":N,"last_byte_ns":N,"status":200}]}},
 * the *_ns values being monotonic nanoseconds since the client process started.
 */
public record ClientLog(long wallTimeNs, List<Transfer> transfers) {

    /** One request/response. */
    public record Transfer(String url, long bytes, long requestNs, long firstByteNs, long lastByteNs, int status) {}

    /** Bytes of all transfers. */
    public long totalBytes() {
        return transfers.stream().mapToLong(Transfer::bytes).sum();
    }

    /** From the earliest request to the latest last byte, in ns; 0 without transfers. */
    public long transferSpanNs() {
        if (transfers.isEmpty()) {
            return 0;
        }
        long start = transfers.stream().mapToLong(Transfer::requestNs).min().orElseThrow();
        long end = transfers.stream().mapToLong(Transfer::lastByteNs).max().orElseThrow();
        return end - start;
    }

    public static ClientLog read(Path file) throws IOException {
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(file.toFile());
        } catch (JsonProcessingException e) {
            throw new IOException(file + ":" + e.getLocation().getLineNr() + ": not valid JSON: " + e.getOriginalMessage(), e);
        }
        if (root == null || !root.isObject()) {
            throw new IOException(file + ": a client log must be a JSON object with wall_time_ns and transfers");
        }
        long wall = requireLong(root, "wall_time_ns", file.toString());
        JsonNode ts = root.get("transfers");
        if (ts == null || !ts.isArray()) {
            throw new IOException(file + ": field transfers must be an array of transfers");
        }
        List<Transfer> list = new ArrayList<>();
        for (int i = 0; i < ts.size(); i++) {
            JsonNode t = ts.get(i);
            String where = file + ": transfers[" + i + "]";
            if (!t.isObject()) {
                throw new IOException(where + " must be an object");
            }
            list.add(new Transfer(t.path("url").asText(""), requireLong(t, "bytes", where), requireLong(t, "request_ns", where),
                    t.has("first_byte_ns") ? requireLong(t, "first_byte_ns", where) : -1,
                    requireLong(t, "last_byte_ns", where), t.path("status").asInt(0)));
        }
        return new ClientLog(wall, List.copyOf(list));
    }

    private static long requireLong(JsonNode o, String field, String where) throws IOException {
        JsonNode v = o.get(field);
        if (v == null || !v.isIntegralNumber() || !v.canConvertToLong() || v.longValue() < 0) {
            throw new IOException(where + ": field " + field + " must be a non-negative integer, found "
                    + (v == null ? "nothing" : v.toString()));
        }
        return v.longValue();
    }
}
