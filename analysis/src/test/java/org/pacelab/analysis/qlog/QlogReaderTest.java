package org.pacelab.analysis.qlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QlogReaderTest {
    @TempDir
    Path dir;

    private static final String RS = "\u001e";

    @Test
    void pacelabJsonSeqWithIntendedSendTimesAndMetrics() throws IOException {
        Path f = Files.writeString(dir.resolve("a.sqlog"), RS
                + "{\"qlog_format\":\"JSON-SEQ\",\"qlog_version\":\"0.3\",\"trace\":{\"vantage_point\":{\"type\":\"server\"},"
                + "\"common_fields\":{\"ODCID\":\"AABB\",\"reference_time\":1700000000000.5,\"time_format\":\"relative\"}}}\n"
                + RS + "{\"time\":1.0,\"name\":\"recovery:metrics_updated\",\"data\":{\"congestion_window\":14720,"
                + "\"pacing_rate\":40000000,\"smoothed_rtt\":40.5}}\n"
                + RS + "{\"time\":1.25,\"name\":\"transport:packet_sent\",\"data\":{\"header\":{\"packet_type\":\"1RTT\","
                + "\"packet_number\":3},\"raw\":{\"length\":1252},\"send_at_time\":1.2}}\n"
                + RS + "{\"time\":2.0,\"name\":\"recovery:metrics_updated\",\"data\":{\"bytes_in_flight\":2504}}\n"
                + RS + "{\"time\":2.5,\"name\":\"transport:packet_sent\",\"data\":{\"header\":{\"packet_type\":\"handshake\","
                + "\"packet_number\":0},\"raw\":{\"length\":100}}}\n"
                + RS + "{\"time\":3,\"name\":\"recovery:packet_lost\",\"data\":{\"header\":{\"packet_number\":3}}}\n");
        List<QlogTrace> traces = QlogReader.read(f);
        assertEquals(1, traces.size());
        QlogTrace t = traces.getFirst();
        assertTrue(t.isServer());
        assertTrue(t.connectionIds().contains("aabb"));
        assertEquals(1700000000000.5, t.referenceTimeMs());
        assertTrue(t.sent().contains(3));
        assertFalse(t.sent().contains(0));
        assertEquals(1.2, t.sent().sendAtMs(3));
        assertEquals(1252, t.sent().size(3));
        assertEquals(40_000_000, t.sent().pacingRateBps(3));
        assertEquals(2, t.packetsSent());
        assertEquals(1, t.packetsLost());
        CongestionTimeline tl = t.timeline();
        assertEquals(2, tl.size());
        assertEquals(0.001, tl.time(1), 1e-12);
        assertEquals(14720, tl.value(CongestionTimeline.Column.CONGESTION_WINDOW, 1), "carried forward");
        assertEquals(2504, tl.value(CongestionTimeline.Column.BYTES_IN_FLIGHT, 1));
        assertTrue(Double.isNaN(tl.value(CongestionTimeline.Column.BYTES_IN_FLIGHT, 0)));
    }

    /** A pacelab server trace: application-limited, slow start, CSS, then a loss. */
    private Path slowStartTrace(String end) throws IOException {
        return Files.writeString(dir.resolve("ss.sqlog"), RS
                + "{\"qlog_format\":\"JSON-SEQ\",\"qlog_version\":\"0.3\",\"trace\":{\"vantage_point\":{\"type\":\"server\"},"
                + "\"common_fields\":{\"reference_time\":1700000000000,\"time_format\":\"relative\"}}}\n"
                + RS + "{\"time\":10,\"name\":\"transport:connection_started\",\"data\":{}}\n"
                + RS + "{\"time\":50,\"name\":\"recovery:congestion_state_updated\",\"data\":{\"old\":\"initial\",\"new\":\"application_limited\"}}\n"
                + RS + "{\"time\":50,\"name\":\"recovery:metrics_updated\",\"data\":{\"congestion_window\":14520}}\n"
                + RS + "{\"time\":90,\"name\":\"recovery:congestion_state_updated\",\"data\":{\"old\":\"application_limited\",\"new\":\"slow_start\"}}\n"
                + RS + "{\"time\":200,\"name\":\"recovery:metrics_updated\",\"data\":{\"congestion_window\":300000}}\n"
                + RS + "{\"time\":250,\"name\":\"recovery:congestion_state_updated\",\"data\":{\"old\":\"slow_start\",\"new\":\"conservative_slow_start\"}}\n"
                + RS + "{\"time\":260,\"name\":\"recovery:metrics_updated\",\"data\":{\"congestion_window\":320000}}\n"
                + end);
    }

    @Test
    void theEndOfSlowStartIsTheFirstOtherStateAndItsWindowTheLargestBefore() throws IOException {
        QlogTrace t = QlogReader.read(slowStartTrace(RS + "{\"time\":310,\"name\":\"recovery:congestion_state_updated\","
                + "\"data\":{\"old\":\"conservative_slow_start\",\"new\":\"recovery\"}}\n"
                + RS + "{\"time\":310,\"name\":\"recovery:metrics_updated\",\"data\":{\"congestion_window\":224000,\"ssthresh\":224000}}\n"
                + RS + "{\"time\":400,\"name\":\"recovery:metrics_updated\",\"data\":{\"congestion_window\":500000}}\n")).getFirst();
        StartupEnd e = t.startupEnd();
        assertEquals("recovery", e.state());
        assertEquals(0.3, e.sinceStartS(), 1e-9, "from the first event at 10 ms to 310 ms");
        assertEquals(320_000, e.maxCwndBytes(), "the window before the loss's reduction, not after");
        assertEquals(1_700_000_000_310_000_000L, t.epochNs(e.timeMs()));
        assertEquals(4, t.stateUpdates());
    }

    @Test
    void anSsthreshEndsSlowStartForStacksWithoutStatesAndNoEndMeansNone() throws IOException {
        QlogTrace t = QlogReader.read(slowStartTrace(RS + "{\"time\":280,\"name\":\"recovery:metrics_updated\","
                + "\"data\":{\"congestion_window\":330000,\"ssthresh\":330000}}\n")).getFirst();
        assertEquals("ssthresh_set", t.startupEnd().state());
        assertEquals(320_000, t.startupEnd().maxCwndBytes());
        Files.delete(dir.resolve("ss.sqlog"));
        // an unset ssthresh logged as UINT64_MAX does not end it; without an end there is no StartupEnd
        QlogTrace never = QlogReader.read(slowStartTrace(RS + "{\"time\":280,\"name\":\"recovery:metrics_updated\","
                + "\"data\":{\"congestion_window\":330000,\"ssthresh\":18446744073709551615}}\n")).getFirst();
        assertEquals(null, never.startupEnd());
        assertEquals(3, never.stateUpdates());
    }

    @Test
    void ngtcp2StyleWithoutReferenceTimeAndATruncatedLastRecord() throws IOException {
        Path f = Files.writeString(dir.resolve("b.sqlog"), RS
                + "{\"qlog_format\":\"JSON-SEQ\",\"qlog_version\":\"0.3\",\"trace\":{\"vantage_point\":{\"name\":\"ngtcp2\","
                + "\"type\":\"server\"},\"common_fields\":{\"time_format\":\"relative\",\"reference_time\":0,\"group_id\":\"0102\"}}}\n"
                + RS + "{\"time\":26,\"name\":\"transport:packet_sent\",\"data\":{\"header\":{\"packet_type\":\"1RTT\","
                + "\"packet_number\":15},\"raw\":{\"length\":43}}}\n"
                + RS + "{\"time\":27,\"name\":\"transport:packet_se");
        QlogTrace t = QlogReader.read(f).getFirst();
        assertTrue(Double.isNaN(t.referenceTimeMs()));
        assertTrue(t.sent().contains(15));
        assertTrue(Double.isNaN(t.sent().sendAtMs(15)));
        assertEquals(0, t.sent().withSendAt());
        assertFalse(t.fineSendTimes(), "whole-millisecond times cannot stand for send times");
        assertEquals(1, t.notes().size());
        assertTrue(t.notes().getFirst().startsWith("b.sqlog:3"), t.notes().getFirst());
    }

    @Test
    void wholeFileJsonWithDraftArraysAndDeltaTimes() throws IOException {
        Path f = Files.writeString(dir.resolve("c.qlog"), "{\"qlog_version\":\"draft-02\",\"traces\":[{"
                + "\"vantage_point\":{\"type\":\"client\"},\"common_fields\":{\"time_format\":\"delta\"},"
                + "\"event_fields\":[\"delta_time\",\"category\",\"event\",\"data\"],\"events\":["
                + "[5,\"transport\",\"packet_sent\",{\"header\":{\"packet_type\":\"1RTT\",\"packet_number\":1,\"packet_size\":99}}],"
                + "[5,\"recovery\",\"metrics_updated\",{\"congestion_window\":1000}]]}]}");
        QlogTrace t = QlogReader.read(f).getFirst();
        assertEquals("client", t.vantagePoint());
        assertEquals(5.0, t.sent().eventMs(1));
        assertEquals(99, t.sent().size(1));
        assertEquals(0.005, t.timeline().time(0), 1e-12); // the metrics event is at 10 ms, the trace's first event at 5 ms
    }

    /** picoquic: whole-file JSON, times and RTTs in microseconds, "cwnd", a reference time of its own clock as text. */
    @Test
    void picoquicMicrosecondsCwndAndItsOwnReferenceClock() throws IOException {
        Path f = Files.writeString(dir.resolve("0011.1a2b.server.qlog"), "{ \"qlog_version\": \"draft-00\", \"title\": \"picoquic\", "
                + "\"traces\": [{ \"vantage_point\": { \"name\": \"backend-67\", \"type\": \"server\" }, "
                + "\"event_fields\": [\"relative_time\", \"category\", \"event\", \"data\"], \"configuration\": {\"time_units\": \"us\"}, "
                + "\"common_fields\": { \"protocol_type\": \"QUIC_HTTP3\", \"reference_time\": \"563942109\"}, \"events\": ["
                + "[1730, \"transport\", \"packet_sent\", { \"packet_type\": \"1RTT\", \"header\": { \"packet_size\": 1440, "
                + "\"packet_number\": 7 }}],"
                + "[2045, \"transport\", \"packet_sent\", { \"packet_type\": \"1RTT\", \"header\": { \"packet_size\": 1440, "
                + "\"packet_number\": 8 }}],"
                + "[96315, \"recovery\", \"metrics_updated\", {\"cwnd\": 15360, \"pacing_rate\": 1629412, "
                + "\"smoothed_rtt\": 94257, \"min_rtt\": 94000}]]}]}");
        QlogTrace t = QlogReader.read(f).getFirst();
        assertEquals(1.73, t.sent().eventMs(7), 1e-9);
        assertEquals(2.045, t.sent().eventMs(8), 1e-9);
        assertTrue(Double.isNaN(t.sent().sendAtMs(7)));
        assertTrue(t.fineSendTimes(), "microsecond times can stand for send times");
        assertTrue(Double.isNaN(t.referenceTimeMs()), "563942109 us is picoquic's clock, not the epoch");
        assertEquals(List.of("0011.1a2b.server.qlog: reference_time 563942109 is not a time since the Unix epoch"), t.notes());
        CongestionTimeline tl = t.timeline();
        assertEquals(15360, tl.value(CongestionTimeline.Column.CONGESTION_WINDOW, 0));
        assertEquals(94.257, tl.value(CongestionTimeline.Column.SMOOTHED_RTT_MS, 0), 1e-9);
        assertEquals(94.0, tl.value(CongestionTimeline.Column.MIN_RTT_MS, 0), 1e-9);
        assertEquals(0.094585, tl.time(0), 1e-9); // 96.315 ms after the first event at 1.73 ms
    }

    @Test
    void picoquicsVersionNegotiationWithoutItsBraceIsRepairedAndSaysSo() throws IOException {
        // picoquic d199d45be869 writes "version_negotiation": "chosen": ... without the object's "{"; the second broken
        // parameter sits across the repair's 64 KiB blocks (the padding event before it is sized for that)
        String broken = "[0, \"transport\", \"parameters_set\", { \"owner\": \"remote\", "
                + "\"version_negotiation\": \"chosen\": \"00000001\", \"others\": [\"00000001\",\"6b3343cf\"]}}],";
        String head = "{ \"qlog_version\": \"draft-00\", \"title\": \"picoquic\", \"traces\": [{ \"vantage_point\": "
                + "{ \"name\": \"backend-67\", \"type\": \"server\" }, \"event_fields\": [\"relative_time\", \"category\", "
                + "\"event\", \"data\"], \"configuration\": {\"time_units\": \"us\"}, \"common_fields\": "
                + "{ \"protocol_type\": \"QUIC_HTTP3\", \"reference_time\": \"563942109\"}, \"events\": [";
        String padding = "[1, \"info\", \"message\", { \"message\": \"" + "x".repeat(65_536 - head.length() - broken.length() - 110) + "\"}],";
        String sent = "[1730, \"transport\", \"packet_sent\", { \"packet_type\": \"1RTT\", \"header\": { \"packet_size\": 1440, "
                + "\"packet_number\": 7 }}]]}]}";
        Path f = Files.writeString(dir.resolve("0012.server.qlog"), head + broken + padding + broken + sent);
        int second = (head + broken + padding).length() + broken.indexOf("\"version_negotiation");
        assertTrue(second < 65_536 && second + 30 > 65_536, "the second pattern crosses the first block's end: " + second);
        QlogTrace t = QlogReader.read(f).getFirst();
        assertEquals(1.73, t.sent().eventMs(7), 1e-9);
        assertEquals(1, t.packetsSent());
        assertEquals(List.of("0012.server.qlog: reference_time 563942109 is not a time since the Unix epoch",
                "0012.server.qlog: " + PicoquicVersionNegotiationRepair.NOTE), t.notes());
        // a file that is unreadable for another reason keeps its note and is not read twice into something else
        Path other = Files.writeString(dir.resolve("0013.server.qlog"), head + "[1730, \"transport\" \"x\"]]}]}");
        QlogTrace o = QlogReader.read(other).getFirst();
        assertTrue(o.notes().stream().anyMatch(n -> n.contains("unreadable JSON record")), o.notes().toString());
        assertTrue(o.notes().stream().noneMatch(n -> n.contains("repaired")), o.notes().toString());
    }

    @Test
    void fieldsInAnyOrderFramesSkippedAndRepeatedKeysReplaceEarlierOnes() throws IOException {
        Path f = Files.writeString(dir.resolve("d.sqlog"), RS
                + "{\"trace\":{\"common_fields\":{\"reference_time\":100,\"time_format\":\"absolute\"},"
                + "\"vantage_point\":{\"type\":\"Server\"}},\"qlog_version\":\"0.3\"}\n"
                + RS + "{\"data\":{\"frames\":[{\"frame_type\":\"stream\",\"raw\":{\"length\":7},"
                + "\"header\":{\"packet_number\":99}}],\"send_at_time\":104.5,\"raw\":{\"length\":1200},"
                + "\"header\":{\"packet_number\":7,\"packet_type\":\"1RTT\"}},"
                + "\"name\":\"quic:packet_sent\",\"time\":105}\n"
                + RS + "{\"time\":106,\"name\":\"transport:packet_sent\",\"data\":{\"header\":{\"packet_type\":\"initial\","
                + "\"packet_number\":8},\"header\":{\"packet_type\":\"1RTT\",\"packet_number\":9}}}\n"
                + RS + "{\"time\":107,\"name\":\"recovery:metrics_updated\",\"data\":{\"congestion_window\":5000,"
                + "\"congestion_window\":\"lots\",\"ssthresh\":8000}}\n");
        QlogTrace t = QlogReader.read(f).getFirst();
        assertTrue(t.isServer());
        assertTrue(t.sent().contains(7), "the data came before the event's name");
        assertTrue(t.sent().contains(9));
        assertFalse(t.sent().contains(99), "a frame's fields are not the packet's");
        assertFalse(t.sent().contains(8), "the later header replaces the earlier one");
        assertEquals(5.0, t.sent().eventMs(7), "absolute times are relative to reference_time");
        assertEquals(4.5, t.sent().sendAtMs(7));
        assertEquals(1200, t.sent().size(7));
        assertEquals(0, t.sent().size(9), "no raw length and no packet_size");
        assertEquals(1, t.timeline().size());
        assertTrue(Double.isNaN(t.timeline().value(CongestionTimeline.Column.CONGESTION_WINDOW, 0)),
                "the later, non-numeric congestion_window replaces the number");
        assertEquals(8000, t.timeline().value(CongestionTimeline.Column.SSTHRESH, 0));
    }

    @Test
    void newlineDelimitedEventsWithCategoryAndEventNamesAndTheOriginalDcidFromParameters() throws IOException {
        Path f = Files.writeString(dir.resolve("e.qlog"),
                "{\"qlog_format\":\"NDJSON\",\"vantage_point\":{\"type\":\"client\"},\"common_fields\":{\"group_id\":\"0A0B\"}}\n"
                + "[1, 2, 3]\n"
                + "{\"time\":\"1.5\",\"category\":\"transport\",\"event\":\"packet_sent\",\"data\":{\"packet_type\":\"one_rtt\","
                + "\"header\":{\"packet_number\":4,\"packet_size\":321}}}\n"
                + "{\"time\":2,\"name\":\"transport:parameters_set\",\"data\":{\"original_destination_connection_id\":\"CCDD\"}}\n"
                + "{\"time\":3,\"name\":\"transport:packet_sent\",\"data\":\"not an object\"}\n");
        QlogTrace t = QlogReader.read(f).getFirst();
        assertEquals("client", t.vantagePoint());
        assertEquals(Set.of("0a0b", "ccdd"), t.connectionIds());
        assertTrue(t.sent().contains(4), "the data's own packet_type counts when the header has none");
        assertEquals(1.5, t.sent().eventMs(4), "a numeric string is a time");
        assertEquals(321, t.sent().size(4));
        assertEquals(1, t.packetsSent(), "an event whose data is not an object is counted but not used");
        assertEquals(3, t.events());
        assertTrue(t.notes().isEmpty(), t.notes().toString());
    }

    @Test
    void wholeFileJsonWithObjectEventsAndAnUnnamedOne() throws IOException {
        Path f = Files.writeString(dir.resolve("g.json"), "{\"qlog_version\":\"draft-02\",\"traces\":[{"
                + "\"vantage_point\":{\"type\":\"server\"},\"common_fields\":{\"ODCID\":\"EE\"},\"events\":["
                + "{\"time\":1,\"name\":\"transport:packet_sent\",\"data\":{\"header\":{\"packet_type\":\"1RTT\","
                + "\"packet_number\":2},\"raw\":{\"length\":1000},\"frames\":[{\"frame_type\":\"ping\"}]}},"
                + "{\"time\":2,\"name\":\"recovery:packet_lost\",\"data\":{}}, 17]}]}");
        List<QlogTrace> traces = QlogReader.read(f);
        assertEquals(1, traces.size());
        QlogTrace t = traces.getFirst();
        assertEquals(Set.of("ee"), t.connectionIds());
        assertEquals(1000, t.sent().size(2));
        assertEquals(1, t.packetsLost());
        assertEquals(2, t.events());
        assertEquals(List.of("g.json: 1 event(s) without a name skipped"), t.notes());
    }

    @Test
    void invalidUtf8EndsTheTraceWithANoteInsteadOfFailing() throws IOException {
        byte[] good = (RS + "{\"qlog_version\":\"0.3\",\"trace\":{}}\n" + RS
                + "{\"time\":1,\"name\":\"transport:packet_sent\",\"data\":{\"header\":{\"packet_type\":\"1RTT\","
                + "\"packet_number\":1}}}\n" + RS + "{\"time\":2,\"name\":\"").getBytes(StandardCharsets.UTF_8);
        byte[] bad = {(byte) 0xff, (byte) 0xfe, '"', '}', '\n'};
        byte[] all = java.util.Arrays.copyOf(good, good.length + bad.length);
        System.arraycopy(bad, 0, all, good.length, bad.length);
        Path f = Files.write(dir.resolve("h.sqlog"), all);
        QlogTrace t = QlogReader.read(f).getFirst();
        assertTrue(t.sent().contains(1));
        assertEquals(1, t.notes().size());
        assertTrue(t.notes().getFirst().startsWith("h.sqlog:3: unreadable JSON record"), t.notes().getFirst());
    }

    /**
     * A packet number far beyond the packets logged before it is skipped with a note instead of sizing the arrays for
     * it (fuzz audit: packet_number 2000000000 ran out of memory); gaps within reach are kept.
     */
    @Test
    void aPacketNumberFarBeyondThePacketsBeforeIsSkippedWithANote() throws IOException {
        String packet = RS + "{\"time\":%d,\"name\":\"transport:packet_sent\",\"data\":{\"header\":{\"packet_type\":\"1RTT\","
                + "\"packet_number\":%s}}}\n";
        Path f = Files.writeString(dir.resolve("far.sqlog"), RS + "{\"qlog_version\":\"0.3\",\"trace\":{}}\n"
                + packet.formatted(1, "0") + packet.formatted(2, "2000000000") + packet.formatted(3, "2e9")
                + packet.formatted(4, "40000") + packet.formatted(5, "1"));
        QlogTrace t = QlogReader.read(f).getFirst();
        assertTrue(t.sent().contains(0));
        assertTrue(t.sent().contains(1));
        assertTrue(t.sent().contains(40000), "0-RTT numbers or skipped ones before are within reach");
        assertFalse(t.sent().contains(2_000_000_000L));
        assertEquals(3, t.sent().count());
        assertEquals(5, t.packetsSent());
        assertEquals(List.of("far.sqlog: 2 1-RTT packet(s) with a packet number far beyond those logged before skipped (the first: "
                + "2000000000 after 1 packet(s))"), t.notes());
    }

    /** A packet logged twice is kept once (the first) and is not taken for a packet far beyond the others. */
    @Test
    void aPacketLoggedTwiceIsKeptOnceWithoutANote() throws IOException {
        String packet = RS + "{\"time\":%s,\"name\":\"transport:packet_sent\",\"data\":{\"header\":{\"packet_type\":\"1RTT\","
                + "\"packet_number\":%d},\"raw\":{\"length\":%d}}}\n";
        Path f = Files.writeString(dir.resolve("twice.sqlog"), RS + "{\"qlog_version\":\"0.3\",\"trace\":{}}\n"
                + packet.formatted("1", 0, 1200) + packet.formatted("2", 1, 1200) + packet.formatted("2.5", 1, 100));
        QlogTrace t = QlogReader.read(f).getFirst();
        assertEquals(2, t.sent().count());
        assertEquals(1200, t.sent().size(1), "the first is kept");
        assertEquals(2.0, t.sent().eventMs(1));
        assertEquals(3, t.packetsSent());
        assertEquals(List.of(), t.notes());
    }

    @Test
    void directoriesListQlogFilesOnly() throws IOException {
        Files.writeString(dir.resolve("x.sqlog"), "");
        Files.writeString(dir.resolve("y.qlog"), "");
        Files.writeString(dir.resolve("notes.txt"), "");
        assertEquals(2, QlogReader.files(dir).size());
    }
}
