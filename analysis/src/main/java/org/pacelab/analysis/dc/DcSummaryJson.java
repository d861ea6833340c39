package org.pacelab.analysis.dc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.pacelab.analysis.io.AtomicFiles;

/**
 * The JSON form of a {@link DcRunSummary} ({@code dc-summary.json}): top-level {@code jfi}, {@code throughput_mbps},
 * the window, the sliding-window fairness, then {@code flows} and {@code paths}. Numbers that cannot be computed are
 * null, and {@code note} says why.
 */
public final class DcSummaryJson {
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private DcSummaryJson() {}

    public static ObjectNode toJson(DcRunSummary s) {
        ObjectNode o = MAPPER.createObjectNode();
        number(o, "jfi", s.jfi());
        number(o, "throughput_mbps", s.throughputMbps());
        number(o, "window_start_s", s.windowStartS());
        number(o, "window_end_s", s.windowEndS());
        number(o, "jfi_window_s", s.jfiWindowS());
        number(o, "jfi_window_mean", s.jfiWindowMean());
        number(o, "jfi_window_min", s.jfiWindowMin());
        ArrayNode flows = o.putArray("flows");
        for (DcRunSummary.FlowResult f : s.flows()) {
            ObjectNode j = flows.addObject();
            j.put("id", f.id());
            j.put("label", f.label());
            j.put("mode", f.mode());
            number(j, "throughput_mbps", f.throughputMbps());
            j.put("bytes", f.bytes());
            ArrayNode share = j.putArray("path_share");
            for (double v : f.pathShare()) addNumber(share, v);
            DcRunData.Reordering r = f.reordering();
            if (r != null) {
                ObjectNode ro = j.putObject("reordering");
                ro.put("received", r.received());
                ro.put("delivered_at_once", r.deliveredAtOnce());
                ro.put("held", r.held());
                ro.put("released_by_arrival", r.releasedByArrival());
                ro.put("released_by_timer", r.releasedByTimer());
                ro.put("timer_expiries", r.timerExpiries());
                ro.put("duplicates", r.duplicates());
                ro.put("outdated", r.outdated());
                ro.put("max_held", r.maxHeld());
                number(ro, "hold_p50_ms", r.holdP50Ms());
                number(ro, "hold_p99_ms", r.holdP99Ms());
                number(ro, "hold_max_ms", r.holdMaxMs());
            }
        }
        ArrayNode paths = o.putArray("paths");
        for (DcRunSummary.PathResult p : s.paths()) {
            ObjectNode j = paths.addObject();
            j.put("name", p.name());
            number(j, "throughput_mbps", p.throughputMbps());
            number(j, "capacity_mbps", p.capacityMbps());
            number(j, "utilization", p.utilization());
            j.put("drops", p.drops());
            number(j, "jfi", p.jfi());
            ArrayNode share = j.putArray("flow_share");
            for (double v : p.flowShare()) addNumber(share, v);
        }
        if (s.note() == null) o.putNull("note"); else o.put("note", s.note());
        return o;
    }

    /** Writes atomically. */
    public static void write(DcRunSummary s, Path file) throws IOException {
        AtomicFiles.writeString(file, MAPPER.writeValueAsString(toJson(s)) + "\n");
    }

    /** Reads the JSON back as a tree (for aggregating runs); errors name the file. */
    public static JsonNode read(Path file) throws IOException {
        try {
            JsonNode n = MAPPER.readTree(Files.readString(file));
            if (n == null || !n.isObject() || !n.has("jfi")) {
                throw new IOException(file + " is not a dual-connectivity summary (no jfi field)");
            }
            return n;
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IOException(file + ": not valid JSON at line " + e.getLocation().getLineNr() + ", column "
                    + e.getLocation().getColumnNr(), e);
        }
    }

    /** A number field, NaN when null or missing. */
    public static double number(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? Double.NaN : v.asDouble();
    }

    private static void number(ObjectNode o, String name, double v) {
        if (Double.isFinite(v)) o.put(name, v); else o.putNull(name);
    }

    private static void addNumber(ArrayNode a, double v) {
        if (Double.isFinite(v)) a.add(v); else a.addNull();
    }
}
