package org.pacelab.lab.interop;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Reads a tap with Wireshark's QUIC dissector, as the QUIC Interop Runner does (it uses pyshark over tshark): tshark
 * decrypts with the key log and prints every packet as JSON ({@code -T json --no-duplicate-keys}), which is streamed
 * here one frame at a time into {@link QuicPacket}s. The dissector is independent of pacelab's own stack, so a check
 * of pacelab's packets is not pacelab checking itself.
 */
public final class TraceReader {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long TIMEOUT_SECONDS = 600;
    /**
     * The most QUIC packets a check reads of one tap, each kept in memory with all its fields. The largest tap of a
     * passing cell in the matrix of 2026-12-03 had 112,516 QUIC packets in 112,137 datagrams (handshakecorruption
     * ngtcp2 → quiche, 50 connections; 458 MB of heap, 4 kB a packet), a 10 MB transfer about 17,000 (9 kB a packet, the
     * hex of its payload twice); a flooding peer's tap (23 million datagrams in 180 s) ran the JVM out of memory and
     * ended the invocation. 250,000 is twice the largest passing cell, at most about 2.3 GB of heap.
     */
    public static final int MAX_PACKETS = 250_000;

    private final String tshark;
    private final int maxPackets;

    /** @param tshark the tshark program (a path or a name on PATH) */
    public TraceReader(String tshark) {
        this(tshark, MAX_PACKETS);
    }

    /** @param maxPackets the most QUIC packets read of one tap; a tap with more fails its check */
    TraceReader(String tshark, int maxPackets) {
        if (maxPackets < 1) {
            throw new IllegalArgumentException("a trace reader's packet bound must be at least 1, not " + maxPackets);
        }
        this.tshark = tshark;
        this.maxPackets = maxPackets;
    }

    /**
     * Dissects {@code capture}.
     *
     * @param keyLog     NSS key log for decryption, or null
     * @param serverPorts the server's UDP ports (decoded as QUIC; datagrams from them are the server's)
     * @param work        a directory for tshark's error output
     */
    public Trace read(Path capture, Path keyLog, java.util.Set<Integer> serverPorts, Path work) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(tshark, "-n", "-r", capture.toString()));
        for (int port : serverPorts) {
            cmd.add("-d");
            cmd.add("udp.port==" + port + ",quic");
        }
        cmd.addAll(List.of("-T", "json", "--no-duplicate-keys"));
        if (keyLog != null) {
            cmd.add("-o");
            cmd.add("tls.keylog_file:" + keyLog);
        }
        Path err = work.resolve("tshark.err");
        Process p = new ProcessBuilder(cmd).redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .start();
        // the whole read is bounded, also a tshark that stops printing: stopping it ends the stream being parsed
        AtomicBoolean timedOut = new AtomicBoolean();
        p.onExit().orTimeout(TIMEOUT_SECONDS, TimeUnit.SECONDS).whenComplete((done, timeout) -> {
            if (timeout != null) {
                timedOut.set(true);
                p.destroyForcibly();
            }
        });
        List<QuicPacket> out = new ArrayList<>();
        boolean[] failed = {false};
        Boolean complete = null;
        JsonProcessingException malformed = null;
        try (InputStream in = p.getInputStream()) {
            complete = parse(in, serverPorts, maxPackets, out, failed);
        } catch (JsonProcessingException e) {
            malformed = e;
        } finally {
            if (complete == null || !complete) {
                p.destroyForcibly(); // at the bound, on bad output or when interrupted: tshark is not left running
            }
        }
        p.waitFor();
        if (timedOut.get()) {
            throw new TraceException("tshark did not finish reading " + capture + " within " + TIMEOUT_SECONDS
                    + " s, the most the check waits for it");
        }
        if (Boolean.FALSE.equals(complete)) {
            double span = (out.getLast().datagram().timeNs() - out.getFirst().datagram().timeNs()) / 1e9;
            throw new TraceException("the tap " + capture + " has more than " + maxPackets + " QUIC packets (the first "
                    + maxPackets + " span " + String.format(java.util.Locale.ROOT, "%.1f", span) + " s); the check reads at most "
                    + maxPackets);
        }
        if (malformed == null && p.exitValue() != 0) {
            String e = Files.isRegularFile(err) ? Files.readString(err).strip() : "";
            throw new TraceException("tshark could not read " + capture + " (exit status " + p.exitValue() + "): "
                    + (e.length() > 300 ? e.substring(e.length() - 300) : e));
        }
        if (malformed != null) {
            throw new TraceException("tshark's JSON for " + capture + " is not a JSON array of frames ("
                    + malformed.getOriginalMessage() + " after " + out.size() + " QUIC packets)");
        }
        return new Trace(out, failed[0]);
    }

    /**
     * Parses tshark's JSON array of frames, one frame at a time, into at most {@code maxPackets} QUIC packets.
     *
     * @return true when every frame was read; false when a QUIC packet beyond the first {@code maxPackets} was found
     *         (the rest is left unread)
     */
    static boolean parse(InputStream in, java.util.Set<Integer> serverPorts, int maxPackets, List<QuicPacket> out,
                         boolean[] decryptionFailed) throws IOException {
        JsonFactory f = JSON.getFactory();
        try (JsonParser jp = f.createParser(in)) {
            if (jp.nextToken() != JsonToken.START_ARRAY) {
                return true; // an empty capture prints nothing
            }
            while (jp.nextToken() == JsonToken.START_OBJECT) {
                JsonNode frame = jp.readValueAsTree();
                JsonNode layers = frame.path("_source").path("layers");
                if (!addFrame(layers, serverPorts, maxPackets, out, decryptionFailed)) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Adds the frame's QUIC packets; false when one of them would be the {@code maxPackets + 1}th. */
    private static boolean addFrame(JsonNode layers, java.util.Set<Integer> serverPorts, int maxPackets, List<QuicPacket> out,
                                    boolean[] decryptionFailed) {
        JsonNode quic = layers.get("quic");
        JsonNode udp = layers.get("udp");
        if (quic == null || udp == null) {
            return true;
        }
        JsonNode frameLayer = layers.path("frame");
        int number = frameLayer.path("frame.number").asInt();
        long time = epochNanos(frameLayer.path("frame.time_epoch").asText("0"));
        boolean v6 = layers.has("ipv6");
        JsonNode ip = v6 ? layers.path("ipv6") : layers.path("ip");
        String src = text(ip, v6 ? "ipv6.src" : "ip.src");
        String dst = text(ip, v6 ? "ipv6.dst" : "ip.dst");
        int ecn = v6 ? find(ip, "ipv6.tclass.ecn") : find(ip, "ip.dsfield.ecn");
        int sport = udp.path("udp.srcport").asInt();
        int dport = udp.path("udp.dstport").asInt();
        QuicPacket.Datagram d = new QuicPacket.Datagram(number, time, serverPorts.contains(sport), v6, src, sport, dst, dport,
                Math.max(ecn, 0), udp.path("udp.length").asInt());
        Iterator<JsonNode> packets = quic.isArray() ? quic.elements() : List.of(quic).iterator();
        while (packets.hasNext()) {
            JsonNode q = packets.next();
            if (out.size() == maxPackets) {
                return false;
            }
            Map<String, List<String>> fields = new LinkedHashMap<>();
            flatten(q, fields);
            if (fields.containsKey("quic.decryption_failed")) {
                decryptionFailed[0] = true;
            }
            out.add(new QuicPacket(d, type(fields), fields));
        }
        return true;
    }

    /** The packet's kind from its header fields, as the runner's {@code get_packet_type} tells it. */
    static QuicPacket.Type type(Map<String, List<String>> fields) {
        String form = firstOf(fields, "quic.header_form");
        if ("0".equals(form)) {
            return QuicPacket.Type.ONE_RTT;
        }
        String version = firstOf(fields, "quic.version");
        if (version != null && Long.decode(version) == 0) {
            return QuicPacket.Type.VERSION_NEGOTIATION;
        }
        String v1 = firstOf(fields, "quic.long.packet_type");
        String v2 = firstOf(fields, "quic.long.packet_type_v2");
        if (v2 != null) {
            return switch (v2) {
                case "1" -> QuicPacket.Type.INITIAL;
                case "2" -> QuicPacket.Type.ZERO_RTT;
                case "3" -> QuicPacket.Type.HANDSHAKE;
                case "0" -> QuicPacket.Type.RETRY;
                default -> QuicPacket.Type.INVALID;
            };
        }
        if (v1 != null) {
            return switch (v1) {
                case "0" -> QuicPacket.Type.INITIAL;
                case "1" -> QuicPacket.Type.ZERO_RTT;
                case "2" -> QuicPacket.Type.HANDSHAKE;
                case "3" -> QuicPacket.Type.RETRY;
                default -> QuicPacket.Type.INVALID;
            };
        }
        return QuicPacket.Type.INVALID;
    }

    private static String firstOf(Map<String, List<String>> fields, String name) {
        List<String> v = fields.get(name);
        return v == null || v.isEmpty() ? null : v.getFirst();
    }

    /** Every name/value pair in the tree, arrays and nested objects included, in document order. */
    static void flatten(JsonNode node, Map<String, List<String>> into) {
        Iterator<Map.Entry<String, JsonNode>> it = node.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            add(e.getKey(), e.getValue(), into);
        }
    }

    private static void add(String name, JsonNode v, Map<String, List<String>> into) {
        if (v.isObject()) {
            flatten(v, into);
            // an object under a field name means the field was present with children (e.g. quic.frame)
            into.computeIfAbsent(name, k -> new ArrayList<>()).add("");
        } else if (v.isArray()) {
            for (JsonNode x : v) {
                add(name, x, into);
            }
        } else {
            into.computeIfAbsent(name, k -> new ArrayList<>()).add(v.asText());
        }
    }

    private static String text(JsonNode n, String name) {
        return n.path(name).asText("");
    }

    /** A field anywhere under {@code n} as an int, or -1. */
    private static int find(JsonNode n, String name) {
        JsonNode v = n.findValue(name);
        if (v == null || !v.isValueNode()) {
            return -1;
        }
        try {
            return Integer.decode(v.asText());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    static long epochNanos(String seconds) {
        int dot = seconds.indexOf('.');
        if (dot < 0) {
            return Long.parseLong(seconds) * 1_000_000_000L;
        }
        String frac = (seconds.substring(dot + 1) + "000000000").substring(0, 9);
        return Long.parseLong(seconds.substring(0, dot)) * 1_000_000_000L + Long.parseLong(frac);
    }
}
