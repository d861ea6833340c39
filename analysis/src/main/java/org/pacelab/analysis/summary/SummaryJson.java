package org.pacelab.analysis.summary;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.pacelab.analysis.io.AtomicFiles;

/** Writes and reads the flat JSON form of a {@link Summary}. */
public final class SummaryJson {
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private SummaryJson() {}

    /** The JSON object, fields in schema order; null metrics are followed by their reason. */
    public static ObjectNode toJson(Summary s) {
        ObjectNode o = MAPPER.createObjectNode();
        for (SummaryField f : SummaryField.values()) {
            Object v = s.get(f);
            switch (v) {
                case null -> o.putNull(f.jsonName());
                case Long l -> o.put(f.jsonName(), l);
                case Double d -> o.put(f.jsonName(), d);
                case Boolean b -> o.put(f.jsonName(), b);
                default -> o.put(f.jsonName(), v.toString());
            }
            if (v == null && f.metric()) {
                String reason = s.reason(f);
                o.put(f.reasonName(), reason == null ? "not computed" : reason);
            }
        }
        return o;
    }

    public static String toText(Summary s) {
        try {
            return MAPPER.writeValueAsString(toJson(s)) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("summary serialisation failed", e);
        }
    }

    public static void write(Summary s, OutputStream out) throws IOException {
        out.write(toText(s).getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /** Writes atomically (temporary file, then rename). */
    public static void write(Summary s, Path file) throws IOException {
        AtomicFiles.writeString(file, toText(s));
    }

    /** Reads a summary; unknown fields are ignored, wrongly typed ones are an error naming the field. */
    public static Summary read(Path file) throws IOException {
        JsonNode root;
        try {
            root = MAPPER.readTree(file.toFile());
        } catch (JsonProcessingException e) {
            throw new IOException(file + ":" + e.getLocation().getLineNr() + ": not valid JSON: " + e.getOriginalMessage(), e);
        }
        if (root == null || !root.isObject()) {
            throw new IOException(file + ": a summary must be a JSON object");
        }
        return fromJson(root, file.toString());
    }

    public static Summary fromJson(JsonNode root, String where) throws IOException {
        Summary s = new Summary();
        for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            SummaryField f = SummaryField.byJsonName(e.getKey());
            JsonNode v = e.getValue();
            if (f == null || v.isNull()) {
                continue;
            }
            boolean ok = switch (f.kind()) {
                case INTEGER -> v.canConvertToLong() && v.isIntegralNumber();
                case NUMBER -> v.isNumber();
                case STRING -> v.isTextual();
                case BOOLEAN -> v.isBoolean();
            };
            if (!ok) {
                throw new IOException(where + ": field " + f.jsonName() + " must be " + f.kind().name().toLowerCase()
                        + ", found " + v);
            }
            switch (f.kind()) {
                case INTEGER -> s.put(f, v.longValue());
                case NUMBER -> s.put(f, v.doubleValue());
                case STRING -> s.put(f, v.textValue());
                case BOOLEAN -> s.put(f, v.booleanValue());
            }
        }
        for (SummaryField f : SummaryField.values()) {
            JsonNode r = root.get(f.reasonName());
            if (f.metric() && !s.has(f) && r != null && r.isTextual()) {
                s.unavailable(f, r.textValue());
            }
        }
        return s;
    }
}
