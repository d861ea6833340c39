package org.pacelab.analysis.qlog;

import java.io.BufferedInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
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
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DatabindException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

/**
 * Reads qlog leniently: JSON-SEQ (RFC 7464 record separators, qlog 0.3/0.4 as pacelab, ngtcp2 and quiche write
 * it), newline-delimited JSON, and the whole-file JSON form ({@code traces[].events[]}, events as objects or as
 * draft-02 arrays described by {@code event_fields}). Events are taken from their name's suffix, so
 * {@code transport:packet_sent} and {@code quic:packet_sent} both count.
 *
 * <p>Records are streamed one at a time with Jackson's token parser: of an event's {@code data} only the fields
 * pacelab uses are kept ({@link EventData}) and the rest, such as frame lists, is skipped without building a tree.
 * Header records and the whole-file form's {@code traces} are small or rare and are read as trees.
 */
public final class QlogReader {
    /** Times and metrics are decimal numbers: the fast (and equally exact) double parser reads them. */
    /** 2001-09-09 in ms since the Unix epoch: a reference time before it is some other clock's. */
    private static final double EPOCH_2001_MS = 1e12;
    private static final int[] RTT_COLUMNS = {CongestionTimeline.Column.SMOOTHED_RTT_MS.ordinal(),
            CongestionTimeline.Column.MIN_RTT_MS.ordinal(), CongestionTimeline.Column.LATEST_RTT_MS.ordinal()};
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(StreamReadFeature.USE_FAST_DOUBLE_PARSER)
            .build();

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

    /**
     * Reads every trace of a file (JSON-SEQ files hold one). A file that stops being JSON where picoquic leaves out a
     * brace ({@link PicoquicVersionNegotiationRepair}) is read again with the brace put back, and its traces say so.
     */
    public static List<QlogTrace> read(Path file) throws IOException {
        List<QlogTrace> traces = read(Files.newInputStream(file), file);
        boolean unreadable = traces.stream().anyMatch(t -> t.notes().stream().anyMatch(n -> n.contains(UNREADABLE)));
        if (!unreadable) {
            return traces;
        }
        PicoquicVersionNegotiationRepair.Repairing bytes = PicoquicVersionNegotiationRepair.repaired(file);
        List<QlogTrace> again = read(bytes, file);
        if (bytes.repairs() == 0) {
            return traces; // unreadable for another reason
        }
        List<QlogTrace> repaired = new ArrayList<>();
        for (QlogTrace t : again) {
            List<String> notes = new ArrayList<>(t.notes());
            notes.add(file.getFileName() + ": " + PicoquicVersionNegotiationRepair.NOTE);
            repaired.add(new QlogTrace(t.file(), t.vantagePoint(), t.connectionIds(), t.referenceTimeMs(), t.sent(),
                    t.packetsSent(), t.packetsLost(), t.timeline(), t.events(), List.copyOf(notes), t.fineSendTimes(),
                    t.stateUpdates(), t.startupEnd(), t.received()));
        }
        return repaired;
    }

    private static final String UNREADABLE = ": unreadable JSON record (";

    /**
     * Reads every trace of a qlog's bytes as they arrive on {@code bytes} (a file, or a simulated run's qlog while it
     * is being written), closing the stream at the end; {@code file} is the name the traces and notes are given.
     */
    public static List<QlogTrace> read(InputStream bytes, Path file) throws IOException {
        List<TraceBuilder> traces = new ArrayList<>();
        try (InputStream in = new RecordSeparatorAsSpace(new BufferedInputStream(bytes, 1 << 16));
             JsonParser p = MAPPER.createParser(in)) {
            TraceBuilder seq = null;
            RootRecord record = new RootRecord();
            while (true) {
                long line = p.currentLocation().getLineNr();
                try {
                    JsonToken t = p.nextToken();
                    if (t == null) {
                        break;
                    }
                    line = p.currentLocation().getLineNr();
                    if (t != JsonToken.START_OBJECT) {
                        p.skipChildren();
                        continue;
                    }
                    record.read(p);
                } catch (JsonParseException | DatabindException e) {
                    String note = file.getFileName() + ":" + line + UNREADABLE + e.getOriginalMessage()
                            + "); the records before it are used";
                    if (seq == null) {
                        seq = new TraceBuilder(file);
                        traces.add(seq);
                    }
                    seq.notes.add(note);
                    break;
                }
                JsonNode tracesNode = record.other("traces");
                if (tracesNode != null && tracesNode.isArray()) {
                    for (JsonNode trace : tracesNode) {
                        TraceBuilder b = new TraceBuilder(file);
                        b.header(trace);
                        readJsonEvents(trace, b);
                        traces.add(b);
                    }
                } else if (record.other("qlog_format") != null || record.other("qlog_version") != null
                        || record.other("trace") != null) {
                    seq = new TraceBuilder(file);
                    JsonNode trace = record.other("trace");
                    seq.header(trace != null ? trace : record.others());
                    traces.add(seq);
                } else {
                    if (seq == null) {
                        seq = new TraceBuilder(file);
                        traces.add(seq);
                    }
                    seq.event(record.name(), record.time(), record.data());
                }
            }
        }
        List<QlogTrace> out = new ArrayList<>();
        for (TraceBuilder b : traces) {
            out.add(b.build());
        }
        return out;
    }

    private static void readJsonEvents(JsonNode trace, TraceBuilder b) throws IOException {
        JsonNode events = trace.get("events");
        if (events == null || !events.isArray()) {
            return;
        }
        List<String> fields = new ArrayList<>();
        JsonNode ef = trace.get("event_fields");
        if (ef != null && ef.isArray()) {
            ef.forEach(f -> fields.add(f.asText()));
        }
        EventData scratch = new EventData();
        for (JsonNode e : events) {
            if (e.isArray() && !fields.isEmpty()) {
                String category = "";
                String type = "";
                double time = Double.NaN;
                JsonNode data = null;
                for (int i = 0; i < fields.size() && i < e.size(); i++) {
                    switch (fields.get(i)) {
                        case "relative_time", "time", "delta_time" -> time = e.get(i).asDouble(Double.NaN);
                        case "category" -> category = e.get(i).asText();
                        case "event", "event_type" -> type = e.get(i).asText();
                        case "data" -> data = e.get(i);
                        default -> { }
                    }
                }
                b.event(category + ":" + type, time, dataOf(data, scratch));
            } else if (e.isObject()) {
                b.event(nameOf(e.get("name"), e.get("category"), e.get("event")),
                        e.path("time").asDouble(Double.NaN), dataOf(e.get("data"), scratch));
            } else {
                b.unnamed++;
            }
        }
    }

    /** The used fields of a {@code data} tree, or null when it is absent or not an object. */
    private static EventData dataOf(JsonNode data, EventData scratch) throws IOException {
        if (data == null || !data.isObject()) {
            return null;
        }
        try (JsonParser p = MAPPER.treeAsTokens(data)) {
            p.nextToken();
            scratch.read(p);
        }
        return scratch;
    }

    /** An event's name, or {@code category:event} when it has none. */
    private static String nameOf(JsonNode name, JsonNode category, JsonNode event) {
        String n = name == null ? "" : name.asText("");
        if (n.isEmpty()) {
            n = (category == null ? "" : category.asText("")) + ":" + (event == null ? "" : event.asText(""));
        }
        return n;
    }

    /**
     * The current scalar as the node a tree reader would build (the common types without a detour through the
     * mapper); objects and arrays are read as trees.
     */
    private static JsonNode leaf(JsonParser p) throws IOException {
        return switch (p.currentToken()) {
            case VALUE_STRING -> TextNode.valueOf(p.getText());
            case VALUE_NUMBER_INT -> switch (p.getNumberType()) {
                case INT -> IntNode.valueOf(p.getIntValue());
                case LONG -> LongNode.valueOf(p.getLongValue());
                default -> MAPPER.readTree(p);
            };
            case VALUE_NUMBER_FLOAT -> p.getNumberType() == JsonParser.NumberType.DOUBLE
                    ? DoubleNode.valueOf(p.getDoubleValue()) : MAPPER.readTree(p);
            case VALUE_TRUE -> BooleanNode.TRUE;
            case VALUE_FALSE -> BooleanNode.FALSE;
            case VALUE_NULL -> NullNode.instance;
            default -> MAPPER.readTree(p);
        };
    }

    /** A number token's value, NaN for anything else (whose children are skipped). */
    private static double number(JsonParser p) throws IOException {
        if (p.currentToken().isNumeric()) {
            return p.getDoubleValue();
        }
        p.skipChildren();
        return Double.NaN;
    }

    /**
     * One top-level record: an event's {@code name}, {@code category}, {@code event}, {@code time} and
     * {@code data}; any other field is kept as a tree (headers and the whole-file form). Reused between records.
     */
    private static final class RootRecord {
        private JsonNode name;
        private JsonNode category;
        private JsonNode event;
        private JsonNode time;
        private boolean dataIsObject;
        private final EventData data = new EventData();
        private ObjectNode others;

        /** Reads the object whose START_OBJECT is the current token, up to its END_OBJECT. */
        void read(JsonParser p) throws IOException {
            name = null;
            category = null;
            event = null;
            time = null;
            dataIsObject = false;
            others = null;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                switch (field) {
                    case "name" -> name = leaf(p);
                    case "category" -> category = leaf(p);
                    case "event" -> event = leaf(p);
                    case "time" -> time = leaf(p);
                    case "data" -> {
                        dataIsObject = value == JsonToken.START_OBJECT;
                        if (dataIsObject) {
                            data.read(p);
                        } else {
                            p.skipChildren();
                        }
                    }
                    default -> others().set(field, MAPPER.readTree(p));
                }
            }
        }

        ObjectNode others() {
            if (others == null) {
                others = MAPPER.createObjectNode();
            }
            return others;
        }

        JsonNode other(String field) {
            return others == null ? null : others.get(field);
        }

        String name() {
            return nameOf(name, category, event);
        }

        double time() {
            return time == null ? Double.NaN : time.asDouble(Double.NaN);
        }

        EventData data() {
            return dataIsObject ? data : null;
        }
    }

    /**
     * The fields of an event's {@code data} object that pacelab uses, whatever the event (a record's fields may
     * come in any order, so the name may follow the data). A repeated key replaces the earlier value, as in a tree.
     */
    static final class EventData {
        private static final CongestionTimeline.Column[] COLUMNS = CongestionTimeline.Column.values();
        JsonNode headerPacketType;
        JsonNode headerPacketNumber;
        JsonNode headerPacketSize;
        JsonNode packetType;
        JsonNode rawLength;
        double sendAtTime;
        final double[] metrics = new double[COLUMNS.length];
        String originalDestinationConnectionId;
        /** congestion_state_updated: the state entered ({@code new}). */
        String newState;

        /** Reads the object whose START_OBJECT is the current token, up to its END_OBJECT. */
        void read(JsonParser p) throws IOException {
            newState = null;
            headerPacketType = null;
            headerPacketNumber = null;
            headerPacketSize = null;
            packetType = null;
            rawLength = null;
            sendAtTime = Double.NaN;
            java.util.Arrays.fill(metrics, Double.NaN);
            originalDestinationConnectionId = null;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                switch (field) {
                    case "header" -> header(p, value);
                    case "raw" -> raw(p, value);
                    case "packet_type" -> packetType = leaf(p);
                    case "send_at_time" -> sendAtTime = number(p);
                    case "congestion_window", "cwnd" -> metric(p, CongestionTimeline.Column.CONGESTION_WINDOW);
                    case "bytes_in_flight" -> metric(p, CongestionTimeline.Column.BYTES_IN_FLIGHT);
                    case "pacing_rate" -> metric(p, CongestionTimeline.Column.PACING_RATE_BPS);
                    case "smoothed_rtt" -> metric(p, CongestionTimeline.Column.SMOOTHED_RTT_MS);
                    case "min_rtt" -> metric(p, CongestionTimeline.Column.MIN_RTT_MS);
                    case "latest_rtt" -> metric(p, CongestionTimeline.Column.LATEST_RTT_MS);
                    case "ssthresh" -> metric(p, CongestionTimeline.Column.SSTHRESH);
                    case "original_destination_connection_id" -> originalDestinationConnectionId =
                            value == JsonToken.VALUE_STRING ? p.getText() : skipped(p);
                    case "new" -> newState = value == JsonToken.VALUE_STRING ? p.getText() : skipped(p);
                    default -> p.skipChildren();
                }
            }
        }

        private void metric(JsonParser p, CongestionTimeline.Column c) throws IOException {
            metrics[c.ordinal()] = number(p);
        }

        private void header(JsonParser p, JsonToken value) throws IOException {
            headerPacketType = null;
            headerPacketNumber = null;
            headerPacketSize = null;
            if (value != JsonToken.START_OBJECT) {
                p.skipChildren();
                return;
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                p.nextToken();
                switch (field) {
                    case "packet_type" -> headerPacketType = leaf(p);
                    case "packet_number" -> headerPacketNumber = leaf(p);
                    case "packet_size" -> headerPacketSize = leaf(p);
                    default -> p.skipChildren();
                }
            }
        }

        private void raw(JsonParser p, JsonToken value) throws IOException {
            rawLength = null;
            if (value != JsonToken.START_OBJECT) {
                p.skipChildren();
                return;
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                p.nextToken();
                if (field.equals("length")) {
                    rawLength = leaf(p);
                } else {
                    p.skipChildren();
                }
            }
        }

        private static String skipped(JsonParser p) throws IOException {
            p.skipChildren();
            return null;
        }

        /** The packet type: the header's, else the data's own {@code packet_type}, else "". */
        String packetTypeText() {
            String fallback = packetType == null ? "" : packetType.asText("");
            return headerPacketType == null ? fallback : headerPacketType.asText(fallback);
        }

        /** The raw length, else the header's {@code packet_size}, else 0. */
        int size() {
            int fallback = headerPacketSize == null ? 0 : headerPacketSize.asInt(0);
            return rawLength == null ? fallback : rawLength.asInt(fallback);
        }
    }

    /**
     * Turns RS (0x1e) into a space so that the JSON parser reads JSON-SEQ as a sequence of root values. Works on
     * the UTF-8 bytes: a byte below 0x80 is always a whole character in UTF-8.
     */
    private static final class RecordSeparatorAsSpace extends FilterInputStream {
        RecordSeparatorAsSpace(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int c = super.read();
            return c == 0x1e ? ' ' : c;
        }

        @Override
        public int read(byte[] buf, int off, int len) throws IOException {
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
        /** Whether referenceMs counts from the Unix epoch (then it places the trace's times on the capture's clock). */
        boolean epochReference;
        /** Milliseconds per unit of the trace's times (picoquic's are microseconds). */
        double unitMs = 1.0;
        /** 1-RTT packet_sent events whose time is not a whole millisecond. */
        long subMillisecondTimes;
        String timeFormat = "relative";
        double deltaClock;
        double firstEventMs = Double.NaN;
        final SentPackets sent = new SentPackets();
        /** 1-RTT packet_received events by packet number (their event times; the other columns unused). */
        final SentPackets received = new SentPackets();
        final CongestionTimeline timeline = new CongestionTimeline();
        final double[] metrics = new double[COLUMNS.length];
        double pacingRate = Double.NaN;
        long packetsSent;
        long packetsLost;
        long events;
        long unnamed;
        /** 1-RTT packets skipped because their number lay far beyond the packets kept before (SentPackets.add). */
        long farPackets;
        long firstFarPn;
        long keptBeforeFar;
        long stateUpdates;
        double startupEndMs = Double.NaN;
        String startupEndState;
        double startupMaxCwnd = Double.NaN;

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
            // picoquic counts in microseconds ("configuration": {"time_units": "us"}): times, RTTs and its reference time
            String units = trace.path("configuration").path("time_units").asText(common.path("time_units").asText("ms"));
            unitMs = switch (units.toLowerCase(Locale.ROOT)) {
                case "us" -> 1e-3;
                case "ns" -> 1e-6;
                default -> 1.0;
            };
            JsonNode ref = common.path("reference_time");
            double reference = ref.isNumber() ? ref.doubleValue() : ref.isTextual() ? parseOrNaN(ref.textValue()) : Double.NaN;
            if (reference > 0) {
                referenceMs = reference * unitMs;
                // a reference time before 2001 is a clock other than the Unix epoch's (picoquic's: its own clock's start)
                epochReference = referenceMs > EPOCH_2001_MS;
                if (!epochReference && !tfIsAbsolute(common, trace)) {
                    notes.add(file.getFileName() + ": reference_time " + ref.asText() + " is not a time since the Unix epoch");
                }
            }
            String tf = common.path("time_format").asText("");
            if (tf.isEmpty()) {
                tf = trace.path("configuration").path("time_format").asText("relative");
            }
            timeFormat = tf.toLowerCase(Locale.ROOT);
        }

        private static boolean tfIsAbsolute(JsonNode common, JsonNode trace) {
            String tf = common.path("time_format").asText(trace.path("configuration").path("time_format").asText(""));
            return tf.equalsIgnoreCase("absolute");
        }

        static double parseOrNaN(String text) {
            try {
                return Double.parseDouble(text.strip());
            } catch (NumberFormatException e) {
                return Double.NaN;
            }
        }

        void addId(JsonNode n) {
            if (n.isTextual()) {
                addId(n.textValue());
            }
        }

        void addId(String id) {
            if (id != null && !id.isEmpty()) {
                ids.add(id.toLowerCase(Locale.ROOT));
            }
        }

        /** One event; {@code data} is null when the event has no data object. */
        void event(String name, double time, EventData data) {
            events++;
            if (data == null || Double.isNaN(time)) {
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
                case "packet_received" -> packetReceived(t, data);
                case "metrics_updated", "recovery_metrics_updated" -> metricsUpdated(t, data);
                case "packet_lost" -> packetsLost++;
                case "parameters_set" -> addId(data.originalDestinationConnectionId);
                case "congestion_state_updated" -> stateUpdated(t, data.newState);
                default -> { }
            }
        }

        /** Event time in ms relative to the reference time. */
        double timeOf(double raw) {
            double time = raw * unitMs;
            return switch (timeFormat) {
                case "delta" -> deltaClock += time;
                case "absolute" -> Double.isNaN(referenceMs) ? time : time - referenceMs;
                default -> time;
            };
        }

        void packetSent(double t, EventData data) {
            packetsSent++;
            if (!isOneRtt(data.packetTypeText())) {
                return;
            }
            JsonNode pn = data.headerPacketNumber;
            if (pn == null || !pn.canConvertToLong()) {
                return;
            }
            int size = data.size();
            double sendAtMs = data.sendAtTime * unitMs;
            if (!Double.isNaN(sendAtMs) && timeFormat.equals("absolute") && !Double.isNaN(referenceMs)) {
                sendAtMs -= referenceMs;
            }
            long number = pn.asLong();
            if (!sent.add(number, t, sendAtMs, size, pacingRate)) {
                if (farPackets++ == 0) {
                    firstFarPn = number;
                    keptBeforeFar = sent.count();
                }
                return;
            }
            if (t != Math.rint(t)) {
                subMillisecondTimes++;
            }
        }

        /** A 1-RTT packet_received: its time, kept for the clock check (the first of a number logged twice). */
        void packetReceived(double t, EventData data) {
            if (!isOneRtt(data.packetTypeText())) {
                return;
            }
            JsonNode pn = data.headerPacketNumber;
            if (pn != null && pn.canConvertToLong()) {
                received.add(pn.asLong(), t, Double.NaN, data.size(), Double.NaN);
            }
        }

        static boolean isOneRtt(String type) {
            String lower = type.toLowerCase(Locale.ROOT);
            StringBuilder b = new StringBuilder(lower.length());
            for (int i = 0; i < lower.length(); i++) { // letters and digits only: "1-RTT", "one_rtt", "short header"
                char c = lower.charAt(i);
                if (c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
                    b.append(c);
                }
            }
            String n = b.toString();
            return n.equals("1rtt") || n.equals("onertt") || n.equals("short") || n.equals("shortheader");
        }

        /** A state other than these ends the initial slow start (BBR: Startup). */
        private static final Set<String> STARTUP_STATES = Set.of("", "initial", "slow_start", "conservative_slow_start",
                "startup", "application_limited");
        /** ssthresh values at or above this are "not set" (some stacks log UINT64_MAX). */
        private static final double SSTHRESH_UNSET = 1e15;

        void stateUpdated(double t, String state) {
            stateUpdates++;
            if (Double.isNaN(startupEndMs) && state != null
                    && !STARTUP_STATES.contains(state.toLowerCase(Locale.ROOT))) {
                endStartup(t, state.toLowerCase(Locale.ROOT));
            }
        }

        private void endStartup(double t, String how) {
            startupEndMs = t;
            startupEndState = how;
        }

        void metricsUpdated(double t, EventData data) {
            if (Double.isNaN(startupEndMs)) {
                double ssthresh = data.metrics[CongestionTimeline.Column.SSTHRESH.ordinal()];
                if (!Double.isNaN(ssthresh) && ssthresh < SSTHRESH_UNSET) {
                    endStartup(t, "ssthresh_set");
                } else {
                    double cwnd = data.metrics[CongestionTimeline.Column.CONGESTION_WINDOW.ordinal()];
                    if (!Double.isNaN(cwnd)) {
                        startupMaxCwnd = Double.isNaN(startupMaxCwnd) ? cwnd : Math.max(startupMaxCwnd, cwnd);
                    }
                }
            }
            boolean any = false;
            for (int c = 0; c < COLUMNS.length; c++) {
                double v = data.metrics[c];
                if (!Double.isNaN(v)) { // absent values keep their last known level
                    metrics[c] = v;
                    any = true;
                }
            }
            if (unitMs != 1.0) {
                for (int c : RTT_COLUMNS) {
                    if (!Double.isNaN(data.metrics[c])) {
                        metrics[c] = data.metrics[c] * unitMs;
                    }
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
            if (farPackets > 0) {
                notes.add(file.getFileName() + ": " + farPackets + " 1-RTT packet(s) with a packet number far beyond those "
                        + "logged before skipped (the first: " + firstFarPn + " after " + keptBeforeFar + " packet(s))");
            }
            StartupEnd end = Double.isNaN(startupEndMs) ? null
                    : new StartupEnd((startupEndMs - firstEventMs) / 1000.0, startupEndMs, startupEndState,
                    Double.isNaN(startupMaxCwnd) ? -1 : (long) startupMaxCwnd);
            return new QlogTrace(file, vantagePoint, Set.copyOf(ids), epochReference ? referenceMs : Double.NaN, sent, packetsSent,
                    packetsLost, timeline, events, List.copyOf(notes), sent.count() > 0 && 2 * subMillisecondTimes > sent.count(),
                    stateUpdates, end, received);
        }
    }
}
