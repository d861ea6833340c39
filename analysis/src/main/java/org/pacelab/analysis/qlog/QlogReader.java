package org.pacelab.analysis.qlog;

import java.io.FilterReader;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Reads qlog leniently: JSON-SEQ (RFC 7464 record separators, qlog 0.3/0.4 as pacelab, ngtcp2 and quiche write
 * it), newline-delimited JSON, and the whole-file JSON form ({@code traces[].events[]}, events as objects or as
 * draft-02 arrays described by {@code event_fields}). Events are taken from their name's suffix, so
 * {@code transport:packet_sent} and {@code quic:packet_sent} both count. Records are parsed one at a time.
 */
public final class QlogReader {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private QlogReader() {}

    /** The qlog files of a directory (*.sqlog, *.qlog, *.json; not recursive), or the file itself. */
    public static List<Path> files(Path fileOrDirectory) throws IOException {
        if (!Files.isDirectory(fileOrDirectory)) {
            if (!Files.isRegularFile(fileOrDirectory)) {
                throw new java.nio.file.NoSuchFileException(fileOrDirectory.toString(), null, "no such qlog file or directory");
            }
            return List.of(fileOrDirectory);
        }
        try (Stream<Path> s = Files.list(fileOrDirectory)) {
            return s.filter(Files::isRegularFile)
                    .filter(p -> {
                        String n = p.getFileName().toString().toLowerCase(Locale.ROOT);
                        return n.endsWith(".sqlog") || n.endsWith(".qlog") || n.endsWith(".json");
                    })
                    .sorted()
                    .toList();
        }
    }

    /** Reads every trace of a file (JSON-SEQ files hold one). */
    public static List<QlogTrace> read(Path file) throws IOException {
        List<TraceBuilder> traces = new ArrayList<>();
        try (Reader r = new RecordSeparatorAsSpace(Files.newBufferedReader(file, StandardCharsets.UTF_8));
             JsonParser p = MAPPER.createParser(r)) {
            TraceBuilder seq = null;
            while (true) {
                JsonNode record;
                long line = p.currentLocation().getLineNr();
                try {
                    JsonToken t = p.nextToken();
                    if (t == null) {
                        break;
                    }
                    line = p.currentLocation().getLineNr();
                    record = MAPPER.readTree(p);
                } catch (JsonParseException | com.fasterxml.jackson.databind.JsonMappingException e) {
                    String note = file.getFileName() + ":" + line + ": unreadable JSON record ("
                            + e.getOriginalMessage() + "); the records before it are used";
                    if (seq == null) {
                        seq = new TraceBuilder(file);
                        traces.add(seq);
                    }
                    seq.notes.add(note);
                    break;
                }
                if (record == null || !record.isObject()) {
                    continue;
                }
                if (record.has("traces") && record.get("traces").isArray()) {
                    for (JsonNode trace : record.get("traces")) {
                        TraceBuilder b = new TraceBuilder(file);
                        b.header(trace);
                        readJsonEvents(trace, b);
                        traces.add(b);
                    }
                } else if (record.has("qlog_format") || record.has("qlog_version") || record.has("trace")) {
                    seq = new TraceBuilder(file);
                    seq.header(record.has("trace") ? record.get("trace") : record);
                    traces.add(seq);
                } else {
                    if (seq == null) {
                        seq = new TraceBuilder(file);
                        traces.add(seq);
                    }
                    seq.event(record, null);
                }
            }
        }
        List<QlogTrace> out = new ArrayList<>();
        for (TraceBuilder b : traces) {
            out.add(b.build());
        }
        return out;
    }

    private static void readJsonEvents(JsonNode trace, TraceBuilder b) {
        JsonNode events = trace.get("events");
        if (events == null || !events.isArray()) {
            return;
        }
        List<String> fields = new ArrayList<>();
        JsonNode ef = trace.get("event_fields");
        if (ef != null && ef.isArray()) {
            ef.forEach(f -> fields.add(f.asText()));
        }
        for (JsonNode e : events) {
            b.event(e, fields);
        }
    }

    /** Turns RS (0x1e) into a space so that the JSON parser reads JSON-SEQ as a sequence of root values. */
    private static final class RecordSeparatorAsSpace extends FilterReader {
        RecordSeparatorAsSpace(Reader in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int c = super.read();
            return c == 0x1e ? ' ' : c;
        }

        @Override
        public int read(char[] buf, int off, int len) throws IOException {
            int n = super.read(buf, off, len);
            for (int i = off; i < off + n; i++) {
                if (buf[i] == 0x1e) {
                    buf[i] = ' ';
                }
            }
            return n;
        }
    }

    /** Accumulates one trace. */
    private static final class TraceBuilder {
        private static final CongestionTimeline.Column[] COLUMNS = CongestionTimeline.Column.values();
        final Path file;
        final List<String> notes = new ArrayList<>();
        String vantagePoint = "";
        final Set<String> ids = new LinkedHashSet<>();
        double referenceMs = Double.NaN;
        String timeFormat = "relative";
        double deltaClock;
        double firstEventMs = Double.NaN;
        final SentPackets sent = new SentPackets();
        final CongestionTimeline timeline = new CongestionTimeline();
        final double[] metrics = new double[COLUMNS.length];
        double pacingRate = Double.NaN;
        long packetsSent;
        long packetsLost;
        long events;
        long unnamed;

        TraceBuilder(Path file) {
            this.file = file;
            java.util.Arrays.fill(metrics, Double.NaN);
        }

        void header(JsonNode trace) {
            JsonNode vp = trace.path("vantage_point");
            vantagePoint = vp.path("type").asText("").toLowerCase(Locale.ROOT);
            JsonNode common = trace.path("common_fields");
            if (common.isMissingNode()) {
                common = trace.path("common");
            }
            for (String k : new String[] {"group_id", "ODCID", "odcid"}) {
                addId(common.path(k));
            }
            for (String k : new String[] {"group_id", "ODCID", "odcid"}) {
                addId(trace.path(k));
            }
            JsonNode ref = common.path("reference_time");
            if (ref.isNumber() && ref.doubleValue() > 0) {
                referenceMs = ref.doubleValue();
            }
            String tf = common.path("time_format").asText("");
            if (tf.isEmpty()) {
                tf = trace.path("configuration").path("time_format").asText("relative");
            }
            timeFormat = tf.toLowerCase(Locale.ROOT);
        }

        void addId(JsonNode n) {
            if (n.isTextual() && !n.textValue().isEmpty()) {
                ids.add(n.textValue().toLowerCase(Locale.ROOT));
            }
        }

        void event(JsonNode e, List<String> arrayFields) {
            String name;
            double time;
            JsonNode data;
            if (e.isArray() && arrayFields != null && !arrayFields.isEmpty()) {
                String category = "";
                String type = "";
                time = Double.NaN;
                data = null;
                for (int i = 0; i < arrayFields.size() && i < e.size(); i++) {
                    switch (arrayFields.get(i)) {
                        case "relative_time", "time", "delta_time" -> time = e.get(i).asDouble(Double.NaN);
                        case "category" -> category = e.get(i).asText();
                        case "event", "event_type" -> type = e.get(i).asText();
                        case "data" -> data = e.get(i);
                        default -> { }
                    }
                }
                name = category + ":" + type;
            } else if (e.isObject()) {
                name = e.path("name").asText("");
                if (name.isEmpty()) {
                    name = e.path("category").asText("") + ":" + e.path("event").asText("");
                }
                time = e.path("time").asDouble(Double.NaN);
                data = e.get("data");
            } else {
                unnamed++;
                return;
            }
            events++;
            if (data == null || !data.isObject() || Double.isNaN(time)) {
                return;
            }
            double t = timeOf(time);
            if (Double.isNaN(firstEventMs)) {
                firstEventMs = t;
            }
            int colon = name.lastIndexOf(':');
            String kind = colon >= 0 ? name.substring(colon + 1) : name;
            switch (kind) {
                case "packet_sent" -> packetSent(t, data);
                case "metrics_updated", "recovery_metrics_updated" -> metricsUpdated(t, data);
                case "packet_lost" -> packetsLost++;
                case "parameters_set" -> addId(data.path("original_destination_connection_id"));
                default -> { }
            }
        }

        /** Event time in ms relative to the reference time. */
        double timeOf(double time) {
            return switch (timeFormat) {
                case "delta" -> deltaClock += time;
                case "absolute" -> Double.isNaN(referenceMs) ? time : time - referenceMs;
                default -> time;
            };
        }

        void packetSent(double t, JsonNode data) {
            packetsSent++;
            JsonNode header = data.path("header");
            if (!isOneRtt(header.path("packet_type").asText(data.path("packet_type").asText("")))) {
                return;
            }
            JsonNode pn = header.path("packet_number");
            if (!pn.canConvertToLong()) {
                return;
            }
            int size = data.path("raw").path("length").asInt(header.path("packet_size").asInt(0));
            JsonNode sendAt = data.get("send_at_time");
            double sendAtMs = sendAt != null && sendAt.isNumber() ? sendAt.doubleValue() : Double.NaN;
            if (!Double.isNaN(sendAtMs) && timeFormat.equals("absolute") && !Double.isNaN(referenceMs)) {
                sendAtMs -= referenceMs;
            }
            sent.add(pn.asLong(), t, sendAtMs, size, pacingRate);
        }

        static boolean isOneRtt(String type) {
            String n = type.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
            return n.equals("1rtt") || n.equals("onertt") || n.equals("short") || n.equals("shortheader");
        }

        void metricsUpdated(double t, JsonNode data) {
            boolean any = false;
            for (int c = 0; c < COLUMNS.length; c++) {
                JsonNode v = switch (COLUMNS[c]) {
                    case CONGESTION_WINDOW -> data.get("congestion_window");
                    case BYTES_IN_FLIGHT -> data.get("bytes_in_flight");
                    case PACING_RATE_BPS -> data.get("pacing_rate");
                    case SMOOTHED_RTT_MS -> data.get("smoothed_rtt");
                    case MIN_RTT_MS -> data.get("min_rtt");
                    case LATEST_RTT_MS -> data.get("latest_rtt");
                    case SSTHRESH -> data.get("ssthresh");
                };
                if (v != null && v.isNumber()) { // absent values keep their last known level
                    metrics[c] = v.doubleValue();
                    any = true;
                }
            }
            if (!Double.isNaN(metrics[CongestionTimeline.Column.PACING_RATE_BPS.ordinal()])) {
                pacingRate = metrics[CongestionTimeline.Column.PACING_RATE_BPS.ordinal()];
            }
            if (any) {
                timeline.add((t - firstEventMs) / 1000.0, metrics);
            }
        }

        QlogTrace build() {
            if (unnamed > 0) {
                notes.add(file.getFileName() + ": " + unnamed + " event(s) without a name skipped");
            }
            return new QlogTrace(file, vantagePoint, Set.copyOf(ids), referenceMs, sent, packetsSent, packetsLost,
                    timeline, events, List.copyOf(notes));
        }
    }
}
