package org.pacelab.analysis.qlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

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

    @Test
    void directoriesListQlogFilesOnly() throws IOException {
        Files.writeString(dir.resolve("x.sqlog"), "");
        Files.writeString(dir.resolve("y.qlog"), "");
        Files.writeString(dir.resolve("notes.txt"), "");
        assertEquals(2, QlogReader.files(dir).size());
    }
}
