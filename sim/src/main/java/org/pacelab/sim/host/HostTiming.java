package org.pacelab.sim.host;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.pacelab.analysis.io.AtomicFiles;

/**
 * The measured timing of a host, which the simulator charges in virtual time: how late the waits of each send
 * strategy resume, how long system calls take, and the CPU time of the QUIC stack per datagram. Produced by
 * {@code pacelab sim calibrate} (see {@code org.pacelab.sim.calibrate}); the defaults were measured on the
 * project machine and ship as {@code host-timing-default.json}.
 *
 * <p>Lateness distributions are full (quantiles, so tails are kept); system-call and CPU costs are medians.
 *
 * @param source               where the numbers come from (machine, date, command)
 * @param parkLateness         LockSupport.parkNanos with the default timer slack: resume − deadline
 * @param parkTightLateness    the same with the timer slack lowered to 1 ns (prctl)
 * @param spinLateness         busy-waiting on System.nanoTime: resume − deadline
 * @param socketTimeoutLateness a readiness wait (Selector.select(ms)) ending by its timeout: resume − timeout
 * @param socketWakeLatency    a readiness wait ended by a datagram: resume − the datagram's arrival
 * @param kernelTimerLateness  a kernel timer (the fq/etf qdisc watchdog) firing after its expiry; measured as
 *                             the lateness of a 1-ns-slack park, an upper bound (it includes waking a thread)
 * @param sendmsgNs            one datagram sent with DatagramChannel.send / sendmsg
 * @param sendmmsgCallNs       fixed part of one sendmmsg call
 * @param sendmmsgPerPacketNs  added per datagram of a sendmmsg call
 * @param gsoCallNs            fixed part of one UDP_SEGMENT (GSO) send
 * @param gsoPerSegmentNs      added per segment of a GSO send
 * @param recvNs               one receive call that returns a datagram
 * @param recvEmptyNs          one receive call that finds nothing (EAGAIN)
 * @param recvmmsgCallNs       fixed part of one recvmmsg call
 * @param recvmmsgPerPacketNs  added per datagram of a recvmmsg call
 * @param buildSmallNs         CPU time of QuicConnection.send producing a small datagram (an acknowledgement)
 * @param buildFullNs          ... producing a full-size datagram (data)
 * @param processSmallNs       CPU time of receiving a small datagram (QuicConnection.receive and the application)
 * @param processFullNs        ... a full-size datagram
 * @param loopNs               one turn of the event loop that does not wait (a selectNow call)
 */
public record HostTiming(String source, EmpiricalDistribution parkLateness, EmpiricalDistribution parkTightLateness,
                         EmpiricalDistribution spinLateness, EmpiricalDistribution socketTimeoutLateness,
                         EmpiricalDistribution socketWakeLatency, EmpiricalDistribution kernelTimerLateness,
                         long sendmsgNs, long sendmmsgCallNs, long sendmmsgPerPacketNs, long gsoCallNs,
                         long gsoPerSegmentNs, long recvNs, long recvEmptyNs, long recvmmsgCallNs,
                         long recvmmsgPerPacketNs, long buildSmallNs, long buildFullNs, long processSmallNs,
                         long processFullNs, long loopNs) {

    /**
     * The mapper of calibration files, made on first use: not by {@link #defaults()}, whose bundled model is read with
     * jackson-core's parser alone ({@link #readTree}), so that the simulator's start does not wait for an ObjectMapper's
     * initialisation (docs/benchmarks.md, issue 14, fourth sitting).
     */
    private static final class Json {
        static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    }
    private static final String RESOURCE = "/org/pacelab/sim/host-timing-default.json";
    private static final String REALTIME_RESOURCE = "/org/pacelab/sim/host-timing-realtime.json";
    /** Host models by name ({@code --host-model NAME}); anything else is a calibration file. */
    public static final java.util.List<String> NAMES = java.util.List.of("default", "realtime", "ideal");
    private static final List<String> DISTRIBUTIONS = List.of("park_lateness_ns", "park_tight_lateness_ns",
            "spin_lateness_ns", "socket_timeout_lateness_ns", "socket_wake_latency_ns", "kernel_timer_lateness_ns");
    private static final List<String> COSTS = List.of("sendmsg_ns", "sendmmsg_call_ns", "sendmmsg_per_packet_ns",
            "gso_call_ns", "gso_per_segment_ns", "recv_ns", "recv_empty_ns", "recvmmsg_call_ns",
            "recvmmsg_per_packet_ns", "build_small_ns", "build_full_ns", "process_small_ns", "process_full_ns",
            "loop_ns");
    /** Sizes the small and full-size costs are measured at (an acknowledgement, pacelab's default datagram). */
    public static final int SMALL_BYTES = 100;
    public static final int FULL_BYTES = 1452;
    /** The bundled models, read once on first use (class initialisation: a second thread asking waits, reads nothing). */
    private static final class Defaults {
        static final HostTiming INSTANCE = bundled(RESOURCE);
    }

    private static final class Realtime {
        static final HostTiming INSTANCE = bundled(REALTIME_RESOURCE);
    }

    public HostTiming {
        long[] all = {sendmsgNs, sendmmsgCallNs, sendmmsgPerPacketNs, gsoCallNs, gsoPerSegmentNs, recvNs, recvEmptyNs,
                recvmmsgCallNs, recvmmsgPerPacketNs, buildSmallNs, buildFullNs, processSmallNs, processFullNs, loopNs};
        for (int i = 0; i < all.length; i++) {
            if (all[i] < 0) {
                throw new IllegalArgumentException("host timing " + COSTS.get(i) + ": " + all[i]
                        + " is not a valid cost; costs are >= 0 ns");
            }
        }
    }

    /**
     * The timing measured on the project machine at normal priority, with the machine shared (the bundled
     * calibration {@code default}): wake-ups see the 50 µs default timer slack and the tails of a busy host.
     */
    public static HostTiming defaults() {
        return Defaults.INSTANCE;
    }

    /**
     * The same machine measured with SCHED_FIFO priority ({@code chrt -f 30}; the bundled calibration
     * {@code realtime}): Linux applies no timer slack to real-time threads, so {@code park} behaves like
     * {@code park-tight}, and tails are short. The model of a host dedicated to the experiment.
     */
    public static HostTiming realtime() {
        return Realtime.INSTANCE;
    }

    /** A bundled model by name ({@link #NAMES}), or null for any other name. */
    public static HostTiming named(String name) {
        return switch (name) {
            case "default" -> defaults();
            case "realtime" -> realtime();
            case "ideal" -> ideal();
            default -> null;
        };
    }

    private static HostTiming bundled(String resource) {
        try (InputStream in = HostTiming.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("the bundled host calibration " + resource + " is missing from the jar");
            }
            return fromJson(readTree(in), resource);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the bundled host calibration " + resource, e);
        }
    }

    /**
     * The tree of the JSON text {@code in} (one value) as {@code ObjectMapper.readTree} makes it for a bundled model
     * (objects, arrays, strings, numbers as int, long, big integer or double nodes, booleans, null; a repeated field's
     * last value), built with jackson-core's streaming parser and {@link JsonNodeFactory}: an ObjectMapper's first
     * creation costs more than the simulator's other start-up work that the run waits for. HostTimingTest checks
     * that both trees of each bundled model are equal.
     */
    static JsonNode readTree(InputStream in) throws IOException {
        try (JsonParser p = new JsonFactory().createParser(in)) {
            if (p.nextToken() == null) {
                throw new IOException("no JSON value");
            }
            return value(p);
        }
    }

    private static JsonNode value(JsonParser p) throws IOException {
        JsonNodeFactory f = JsonNodeFactory.instance;
        return switch (p.currentToken()) {
            case START_OBJECT -> {
                ObjectNode o = f.objectNode();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String name = p.currentName();
                    p.nextToken();
                    o.set(name, value(p));
                }
                yield o;
            }
            case START_ARRAY -> {
                ArrayNode a = f.arrayNode();
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    a.add(value(p));
                }
                yield a;
            }
            case VALUE_STRING -> f.textNode(p.getText());
            case VALUE_NUMBER_INT -> switch (p.getNumberType()) {
                case INT -> f.numberNode(p.getIntValue());
                case LONG -> f.numberNode(p.getLongValue());
                default -> f.numberNode(p.getBigIntegerValue());
            };
            case VALUE_NUMBER_FLOAT -> f.numberNode(p.getDoubleValue());
            case VALUE_TRUE -> f.booleanNode(true);
            case VALUE_FALSE -> f.booleanNode(false);
            case VALUE_NULL -> f.nullNode();
            default -> throw new IOException("unexpected JSON token " + p.currentToken());
        };
    }

    /** Reads a calibration file written by {@code pacelab sim calibrate}; errors name the file and field. */
    public static HostTiming load(Path file) throws IOException {
        JsonNode root;
        try {
            root = Json.MAPPER.readTree(file.toFile());
        } catch (JsonProcessingException e) {
            throw new IOException(file + ":" + e.getLocation().getLineNr() + ": not valid JSON: " + e.getOriginalMessage(), e);
        }
        return fromJson(root, file.toString());
    }

    static HostTiming fromJson(JsonNode root, String where) throws IOException {
        if (root == null || !root.isObject()) {
            throw new IOException(where + ": a host calibration must be a JSON object");
        }
        Set<String> known = new LinkedHashSet<>();
        known.add("source");
        known.addAll(DISTRIBUTIONS);
        known.addAll(COSTS);
        for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!known.contains(k)) {
                throw new IOException(where + ": unknown field '" + k + "'; valid fields: " + String.join(", ", known));
            }
        }
        EmpiricalDistribution[] d = new EmpiricalDistribution[DISTRIBUTIONS.size()];
        for (int i = 0; i < d.length; i++) {
            d[i] = distribution(root, DISTRIBUTIONS.get(i), where);
        }
        long[] c = new long[COSTS.size()];
        for (int i = 0; i < c.length; i++) {
            JsonNode v = root.get(COSTS.get(i));
            if (v == null || !v.isIntegralNumber() || v.asLong() < 0) {
                throw new IOException(where + ": field " + COSTS.get(i) + " must be an integer >= 0 (ns), found "
                        + (v == null ? "nothing" : v.toString()));
            }
            c[i] = v.asLong();
        }
        try {
            return new HostTiming(root.path("source").asText(where), d[0], d[1], d[2], d[3], d[4], d[5],
                    c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9], c[10], c[11], c[12], c[13]);
        } catch (IllegalArgumentException e) {
            throw new IOException(where + ": " + e.getMessage(), e);
        }
    }

    private static EmpiricalDistribution distribution(JsonNode root, String field, String where) throws IOException {
        JsonNode v = root.get(field);
        if (v == null || !v.isArray() || v.isEmpty()) {
            throw new IOException(where + ": field " + field + " must be a non-empty array of quantiles in ns");
        }
        long[] q = new long[v.size()];
        for (int i = 0; i < q.length; i++) {
            JsonNode e = v.get(i);
            if (!e.isIntegralNumber()) {
                throw new IOException(where + ": " + field + "[" + i + "] must be an integer (ns), found " + e);
            }
            q[i] = e.asLong();
        }
        try {
            return EmpiricalDistribution.ofQuantiles(field, q);
        } catch (IllegalArgumentException e) {
            throw new IOException(where + ": " + e.getMessage(), e);
        }
    }

    /** The JSON form {@link #load} reads. */
    public ObjectNode toJson() {
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.put("source", source);
        EmpiricalDistribution[] d = {parkLateness, parkTightLateness, spinLateness, socketTimeoutLateness,
                socketWakeLatency, kernelTimerLateness};
        for (int i = 0; i < d.length; i++) {
            ArrayNode a = o.putArray(DISTRIBUTIONS.get(i));
            for (long q : d[i].quantiles()) {
                a.add(q);
            }
        }
        o.put("sendmsg_ns", sendmsgNs);
        o.put("sendmmsg_call_ns", sendmmsgCallNs);
        o.put("sendmmsg_per_packet_ns", sendmmsgPerPacketNs);
        o.put("gso_call_ns", gsoCallNs);
        o.put("gso_per_segment_ns", gsoPerSegmentNs);
        o.put("recv_ns", recvNs);
        o.put("recv_empty_ns", recvEmptyNs);
        o.put("recvmmsg_call_ns", recvmmsgCallNs);
        o.put("recvmmsg_per_packet_ns", recvmmsgPerPacketNs);
        o.put("build_small_ns", buildSmallNs);
        o.put("build_full_ns", buildFullNs);
        o.put("process_small_ns", processSmallNs);
        o.put("process_full_ns", processFullNs);
        o.put("loop_ns", loopNs);
        return o;
    }

    /** Writes {@link #toJson()} atomically. */
    public void write(Path file) throws IOException {
        AtomicFiles.writeString(file, Json.MAPPER.writeValueAsString(toJson()) + "\n");
    }

    /** CPU time of building and sealing a datagram of {@code length} bytes (interpolated by size, clamped). */
    public long buildCost(int length) {
        return bySize(length, buildSmallNs, buildFullNs);
    }

    /** CPU time of receiving a datagram of {@code length} bytes (interpolated by size, clamped). */
    public long processCost(int length) {
        return bySize(length, processSmallNs, processFullNs);
    }

    private static long bySize(int length, long small, long full) {
        if (length <= SMALL_BYTES) {
            return small;
        }
        if (length >= FULL_BYTES) {
            return full;
        }
        return small + (full - small) * (length - SMALL_BYTES) / (FULL_BYTES - SMALL_BYTES);
    }

    /** A host that costs nothing and wakes exactly on time (for tests that isolate other effects). */
    public static HostTiming ideal() {
        EmpiricalDistribution zero = EmpiricalDistribution.constant(0);
        return new HostTiming("ideal host: no costs, exact wake-ups", zero, zero, zero, zero, zero, zero,
                0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    }
}
