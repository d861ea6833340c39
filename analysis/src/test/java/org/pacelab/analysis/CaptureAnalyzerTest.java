package org.pacelab.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.pacelab.analysis.summary.SummaryField.*;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.analysis.summary.Summary;
import org.pacelab.analysis.testing.CaptureFiles;
import org.pacelab.analysis.testing.Frames;
import org.pacelab.analysis.testing.SyntheticQuic;
import org.pacelab.analysis.testing.SyntheticTransfer;
import org.pacelab.quic.crypto.CipherSuite;

class CaptureAnalyzerTest {
    @TempDir
    Path dir;

    static final long T = 1_700_000_000_000_000_000L; // a whole millisecond, exact in a double of ms
    static final int N = 100;

    /** Pairs 50 µs apart, pairs 400 µs apart; each pair sent 10 µs late or 10 µs early. */
    static long[][] pairs() {
        long[] intended = new long[N];
        long[] wire = new long[N];
        for (int i = 0; i < N; i++) {
            intended[i] = T + (i / 2) * 400_000L + (i % 2) * 50_000L;
            wire[i] = intended[i] + (i % 4 < 2 ? 10_000 : -10_000);
        }
        return new long[][] {wire, intended};
    }

    private SyntheticTransfer.Files3 transfer(double pacingRate) throws IOException {
        long[][] p = pairs();
        return SyntheticTransfer.write(dir.resolve("run"), p[0], p[1], pacingRate, CipherSuite.AES_128_GCM_SHA256);
    }

    @Test
    void quicTransferGivesEveryMetricWithHandComputedValues() throws IOException {
        SyntheticTransfer.Files3 f = transfer(40e6);
        Path csv = dir.resolve("packets.csv");
        RunResult r = CaptureAnalyzer.analyze(AnalysisOptions.of(f.capture()).withKeyLog(f.keyLog()).withQlog(f.qlogDir())
                .withTransferBytes(100_000L).withPacketsCsv(csv), "r1");
        Summary s = r.summary();
        assertEquals("quic", s.string(PROTOCOL));
        assertEquals("10.0.0.1:443", s.string(SERVER));
        assertEquals("initial_response", s.string(SERVER_DETECTION));
        assertEquals(N + 1, s.integer(PACKETS));                  // the handshake datagram and N 1-RTT packets
        assertEquals(2 + N / 10, s.integer(CLIENT_PACKETS));
        assertEquals(N, s.integer(SERVER_1RTT_PACKETS));
        assertEquals(N, s.integer(PN_RECOVERED));
        assertEquals("TLS_AES_128_GCM_SHA256", s.string(CIPHER_SUITE));
        // trains: the handshake datagram alone, then N/2 pairs
        assertEquals(1 + N / 2, s.integer(TRAINS));
        assertEquals(1.0 / (N + 1), s.number(PTL1_SHARE), 1e-12);
        assertEquals(1.0, s.number(PTL_LE2_SHARE), 1e-12);
        assertEquals(2, s.integer(PTL_MAX));
        assertEquals((N / 2) / (double) N, s.number(IPG_LT_THRESHOLD_SHARE), 1e-12);
        // precision: delays are +10 µs and -10 µs in equal numbers
        assertEquals(10.0, s.number(PRECISION_US), 1e-6);
        assertEquals(N, s.integer(PRECISION_MATCHED));
        assertEquals(1.0, s.number(PRECISION_MATCHED_SHARE), 1e-12);
        assertEquals(0.0, s.number(SEND_DELAY_MEAN_US), 1e-3);
        assertEquals(240.0, s.number(TARGET_GAP_P50_US), 0.3);    // 1200 B at 40 Mbit/s
        long lastIntended = T + (N / 2 - 1) * 400_000L + 50_000L;
        double durationNs = (lastIntended + (((N - 1) % 4 < 2) ? 10_000 : -10_000)) - (T + 10_000);
        assertEquals(8.0 * 100_000 / durationNs * 1000, s.number(GOODPUT_WIRE_MBPS), 1e-9);
        assertEquals(0, s.integer(RETRANSMISSIONS));
        assertEquals("qlog", s.string(RETRANSMISSIONS_SOURCE));
        assertTrue(s.integer(CWND_MAX_BYTES) > 12000);
        assertEquals(39.5, s.number(MIN_RTT_MS));
        assertFalse((Boolean) s.get(CAPTURE_TRUNCATED));
        assertNull(s.get(DROPS));
        assertEquals("no emulator event log given (--events)", s.reason(DROPS));
        assertTrue(r.timeline().size() > 0);

        List<String> rows = Files.readAllLines(csv);
        assertEquals(1 + 3 + N + N / 10, rows.size());
        String firstData = rows.stream().filter(l -> l.contains(",s2c,") && l.contains(",1RTT,0,")).findFirst().orElseThrow();
        String[] c = firstData.split(",", -1);
        assertEquals("2", c[8], "train_length of the first pair");
        assertEquals("10000", c[10], "send_delay_ns");
        assertEquals("240000", c[11], "target_gap_ns");
    }

    /** Wire times 20-50 us after the intended ones: no packet leaves before its time. */
    static long[][] lateBy20To50() {
        long[] intended = new long[N];
        long[] wire = new long[N];
        for (int i = 0; i < N; i++) {
            intended[i] = T + i * 300_000L;
            wire[i] = intended[i] + 20_000 + (i % 4) * 10_000;
        }
        return new long[][] {wire, intended};
    }

    private Summary clockRun(String name, long qlogAheadNs, boolean streamed) throws IOException {
        long[][] p = lateBy20To50();
        SyntheticTransfer.Files3 f = SyntheticTransfer.writeWithClocks(dir.resolve(name), p[0], p[1], qlogAheadNs, 30_000);
        AnalysisOptions o = AnalysisOptions.of(f.capture()).withKeyLog(f.keyLog()).withQlog(f.qlogDir())
                .withPacketsCsv(dir.resolve(name + ".csv"));
        if (!streamed) {
            return CaptureAnalyzer.analyze(o, "r").summary();
        }
        StreamedCapture pass = StreamedCapture.read(Files.newInputStream(f.capture()), f.capture(), null, o.thresholdNs(),
                f.keyLog(), () -> Files.readString(f.keyLog(), java.nio.charset.StandardCharsets.ISO_8859_1));
        List<org.pacelab.analysis.qlog.QlogTrace> traces = new ArrayList<>();
        for (Path q : org.pacelab.analysis.qlog.QlogReader.files(f.qlogDir())) {
            traces.addAll(org.pacelab.analysis.qlog.QlogReader.read(q));
        }
        Summary s = CaptureAnalyzer.analyze(o, "r", () -> traces, pass).summary();
        assertTrue(pass.used, "the streamed pass was used");
        return s;
    }

    /**
     * The qlog's clock 23.48 ms ahead of the capture's (the 2026-12-04 re-run: the wall clock stepped between the
     * emulator's start and the connection's): every send delay is 23.48 ms too small and some negative, the clock check
     * measures the offset from both ways and warns; precision does not move. Up: 30 us, down: 20-50 us, so the offset
     * is (23.51 - (-23.46)) / 2 = 23.485 ms within +- (23.51 + (-23.46)) / 2 = 25 us.
     */
    @Test
    void aQlogClockAheadOfTheCaptureIsMeasuredAndWarnedAbout() throws IOException {
        for (boolean streamed : new boolean[] {false, true}) {
            Summary ok = clockRun("same" + streamed, 0, streamed);
            assertEquals(5.0, ok.number(CLOCK_OFFSET_US), 1e-3, "(30 - 20) / 2");
            assertEquals(25.0, ok.number(CLOCK_OFFSET_BOUND_US), 1e-3, "(30 + 20) / 2");
            assertEquals(35.0, ok.number(SEND_DELAY_MEAN_US), 1e-3);
            assertTrue(ok.string(NOTES) == null || !ok.string(NOTES).contains("WARNING"), ok.string(NOTES));

            Summary shifted = clockRun("ahead" + streamed, 23_480_000, streamed);
            assertEquals(23_485.0, shifted.number(CLOCK_OFFSET_US), 1e-3);
            assertEquals(25.0, shifted.number(CLOCK_OFFSET_BOUND_US), 1e-3);
            assertEquals(35.0 - 23_480, shifted.number(SEND_DELAY_MEAN_US), 1e-3, "the raw send delays keep the offset");
            assertEquals(ok.number(PRECISION_US), shifted.number(PRECISION_US), 1e-9, "a standard deviation");
            String notes = shifted.string(NOTES);
            assertTrue(notes.contains("WARNING: the server's qlog clock and the capture's disagree: a server packet reached "
                    + "the capture before its intended send time") && notes.contains("23485.0 +- 25.0 us ahead"), notes);

            Summary behind = clockRun("behind" + streamed, -5_000_000, streamed);
            assertEquals(-4_995.0, behind.number(CLOCK_OFFSET_US), 1e-3, "(30 - 5000 - (20 + 5000)) / 2");
            assertTrue(behind.string(NOTES).contains("a client packet reached the server before the capture saw it"),
                    behind.string(NOTES));
        }
    }

    @Test
    void withoutPacketReceivedEventsTheClockCheckSaysWhy() throws IOException {
        Summary s = CaptureAnalyzer.analyze(AnalysisOptions.of(transfer(40e6).capture()).withKeyLog(dir.resolve("run/keys.log"))
                .withQlog(dir.resolve("run/qlog")), "r").summary();
        assertNull(s.get(CLOCK_OFFSET_US));
        assertEquals("no client 1-RTT packet matched a packet_received event of the server's qlog by packet number",
                s.reason(CLOCK_OFFSET_US));
        assertEquals(s.reason(CLOCK_OFFSET_US), s.reason(CLOCK_OFFSET_BOUND_US));
    }

    @Test
    void gsoBuffersCapturedOnTheSenderAreSplitIntoTheirDatagrams() throws IOException {
        long[][] p = pairs();
        SyntheticTransfer.Files3 f = SyntheticTransfer.write(dir.resolve("gso"), p[0], p[1], 40e6, CipherSuite.AES_128_GCM_SHA256, 5);
        Path csv = dir.resolve("gso.csv");
        Summary s = CaptureAnalyzer.analyze(AnalysisOptions.of(f.capture()).withKeyLog(f.keyLog()).withQlog(f.qlogDir())
                .withPacketsCsv(csv), "r").summary();
        assertEquals(N + 1, s.integer(PACKETS));                  // the handshake datagram and N 1-RTT datagrams
        assertEquals(N, s.integer(SERVER_1RTT_PACKETS));
        assertEquals(N, s.integer(PN_RECOVERED));
        assertEquals(N, s.integer(PRECISION_MATCHED));
        assertEquals(5, s.integer(PTL_MAX), "the 5 datagrams of one buffer share its timestamp");
        String notes = s.string(NOTES);
        assertTrue(notes != null && notes.contains((N / 5) + " capture frames were UDP GSO buffers") && notes.contains(N + " datagrams"),
                String.valueOf(notes));
        List<String> rows = Files.readAllLines(csv);
        assertEquals(N, rows.stream().filter(l -> l.contains(",s2c,") && l.contains(",1RTT,")).count());

        Summary plain = CaptureAnalyzer.analyze(AnalysisOptions.of(transfer(40e6).capture()), "r").summary();
        assertTrue(plain.string(NOTES) == null || !plain.string(NOTES).contains("GSO"), plain.string(NOTES));
    }

    @Test
    void withoutKeyLogTimingMetricsRemainAndPacketNumberMetricsSayWhy() throws IOException {
        SyntheticTransfer.Files3 f = transfer(0);
        Summary s = CaptureAnalyzer.analyze(AnalysisOptions.of(f.capture()).withQlog(f.qlogDir()), "r").summary();
        assertNull(s.get(PN_RECOVERED));
        assertTrue(s.reason(PN_RECOVERED).startsWith("no key log given"), s.reason(PN_RECOVERED));
        assertNull(s.get(PRECISION_US));
        assertTrue(s.reason(PRECISION_US).contains("packet number"), s.reason(PRECISION_US));
        assertEquals(1.0, s.number(PTL_LE2_SHARE), 1e-12);
        assertEquals(N + 1, s.integer(PACKETS));
        assertEquals("TLS_AES_128_GCM_SHA256", s.string(CIPHER_SUITE), "Initial keys need no key log");
    }

    @Test
    void mismatchedKeyLogIsNamed() throws IOException {
        SyntheticTransfer.Files3 f = transfer(0);
        Path other = Files.writeString(dir.resolve("other.keys"), new SyntheticQuic(CipherSuite.AES_128_GCM_SHA256, 99).keyLog());
        Summary s = CaptureAnalyzer.analyze(AnalysisOptions.of(f.capture()).withKeyLog(other), "r").summary();
        assertNull(s.get(PN_RECOVERED));
        assertTrue(s.reason(PN_RECOVERED).contains("has no secrets for the connection's client random"), s.reason(PN_RECOVERED));
    }

    @Test
    void qlogWithoutIntendedTimesExplainsMissingPrecision() throws IOException {
        long[][] p = pairs();
        SyntheticTransfer.Files3 f = SyntheticTransfer.write(dir.resolve("ng"), p[0], null, 0, CipherSuite.AES_128_GCM_SHA256);
        Summary s = CaptureAnalyzer.analyze(AnalysisOptions.of(f.capture()).withKeyLog(f.keyLog()).withQlog(f.qlogDir()), "r")
                .summary();
        assertTrue(s.reason(PRECISION_US).contains("send_at_time"), s.reason(PRECISION_US));
        assertTrue(s.reason(TARGET_GAP_P50_US).contains("pacing_rate"), s.reason(TARGET_GAP_P50_US));
        assertEquals(N, s.integer(QLOG_PACKETS_SENT));
    }

    /** picoquic, quic-go, aioquic: no send_at_time, but packet_sent times finer than a millisecond stand for it. */
    @Test
    void qlogWithFinePacketSentTimesGivesPrecisionAgainstThem() throws IOException {
        long[][] p = pairs();
        SyntheticTransfer.Files3 f = SyntheticTransfer.write(dir.resolve("pq"), p[0], null, 0, CipherSuite.AES_128_GCM_SHA256, false);
        Summary s = CaptureAnalyzer.analyze(AnalysisOptions.of(f.capture()).withKeyLog(f.keyLog()).withQlog(f.qlogDir()), "r")
                .summary();
        assertEquals(1.0, s.number(PRECISION_MATCHED_SHARE));
        assertEquals(0.0, s.number(PRECISION_US), 0.01, "every packet is logged 5 us before its wire time");
        assertEquals(5.0, s.number(SEND_DELAY_P50_US), 1.0, "the delay histogram resolves about a microsecond");
        assertTrue(s.string(NOTES).contains("measured against its packet_sent times"), s.string(NOTES));
    }

    @Test
    void truncatedCaptureGivesPartialResultsMarkedTruncated() throws IOException {
        SyntheticTransfer.Files3 f = transfer(0);
        byte[] all = Files.readAllBytes(f.capture());
        Path cut = Files.write(dir.resolve("cut.pcapng"), Arrays.copyOf(all, all.length - 600));
        Summary s = CaptureAnalyzer.analyze(AnalysisOptions.of(cut).withKeyLog(f.keyLog()), "r").summary();
        assertTrue((Boolean) s.get(CAPTURE_TRUNCATED));
        assertTrue(s.string(CAPTURE_TRUNCATION).contains("byte offset"), s.string(CAPTURE_TRUNCATION));
        assertTrue(s.integer(PACKETS) > N / 2 && s.integer(PACKETS) <= N);
        assertEquals(s.integer(SERVER_1RTT_PACKETS), s.integer(PN_RECOVERED));
    }

    @Test
    void corruptBlockInTheMiddleStopsThereWithItsOffset() throws IOException {
        SyntheticTransfer.Files3 f = transfer(0);
        byte[] all = Files.readAllBytes(f.capture());
        int at = all.length / 2;
        at -= at % 4;
        // find a block start at or after the middle: scan for an Enhanced Packet Block type (6, little-endian)
        int block = -1;
        for (int i = at; i < all.length - 8; i += 4) {
            if (all[i] == 6 && all[i + 1] == 0 && all[i + 2] == 0 && all[i + 3] == 0 && (all[i + 4] & 3) == 0) {
                block = i;
                break;
            }
        }
        assertTrue(block > 0);
        all[block + 4] = 1; // length 0x...01: not a multiple of 4
        Path bad = Files.write(dir.resolve("bad.pcapng"), all);
        Summary s = CaptureAnalyzer.analyze(AnalysisOptions.of(bad).withKeyLog(f.keyLog()), "r").summary();
        assertTrue((Boolean) s.get(CAPTURE_TRUNCATED));
        assertTrue(s.string(CAPTURE_TRUNCATION).contains("byte offset " + block), s.string(CAPTURE_TRUNCATION));
        assertTrue(s.integer(PACKETS) > 10);
    }

    @Test
    void emptyAndHeaderOnlyCapturesGiveReasonsNotErrors() throws IOException {
        Path empty = Files.write(dir.resolve("empty.pcap"), new byte[0]);
        Summary s = CaptureAnalyzer.analyze(AnalysisOptions.of(empty), "e").summary();
        assertEquals(0, s.integer(PACKETS));
        assertTrue((Boolean) s.get(CAPTURE_TRUNCATED));
        assertEquals("the capture holds no frames", s.reason(PROTOCOL));
        assertNull(s.get(IPG_P50_US));
        assertTrue(s.reason(PTL1_SHARE) != null);
        Path header = Files.write(dir.resolve("header.pcap"), CaptureFiles.pcap(ByteOrder.LITTLE_ENDIAN, true, 1, List.of()));
        Summary h = CaptureAnalyzer.analyze(AnalysisOptions.of(header), "h").summary();
        assertFalse((Boolean) h.get(CAPTURE_TRUNCATED));
        assertEquals(0, h.integer(FRAMES));
    }

    @Test
    void unknownLinkTypeIsCountedAsUndecoded() throws IOException {
        Path p = Files.write(dir.resolve("usb.pcap"), CaptureFiles.pcap(ByteOrder.LITTLE_ENDIAN, true, 189,
                List.of(new CaptureFiles.Frame(T, new byte[64]), new CaptureFiles.Frame(T + 1, new byte[64]))));
        Summary s = CaptureAnalyzer.analyze(AnalysisOptions.of(p), "u").summary();
        assertEquals(2, s.integer(FRAMES_UNDECODED));
        assertEquals("189", s.string(LINK_TYPES));
        assertTrue(s.reason(SERVER).contains("no UDP or TCP packet"), s.reason(SERVER));
    }

    @Test
    void tcpFlowGivesGapsTrainsAndRetransmissions() throws IOException {
        List<CaptureFiles.Frame> frames = new ArrayList<>();
        byte[] c = Frames.v4(2);
        byte[] sv = Frames.v4(1);
        frames.add(new CaptureFiles.Frame(T, Frames.ethernet(0x0800, Frames.ipv4(c, sv, 6, Frames.tcp(50000, 443, 100, 0, 0x02, new byte[0])))));
        frames.add(new CaptureFiles.Frame(T + 1000, Frames.ethernet(0x0800, Frames.ipv4(sv, c, 6, Frames.tcp(443, 50000, 7000, 101, 0x12, new byte[0])))));
        long seq = 7001;
        long t = T + 2_000_000;
        long[] gaps = {0, 10_000, 10_000, 500_000, 10_000};
        for (int i = 0; i < gaps.length; i++) {
            t += gaps[i];
            frames.add(new CaptureFiles.Frame(t, Frames.ethernet(0x0800, Frames.ipv4(sv, c, 6,
                    Frames.tcp(443, 50000, seq, 101, 0x10, new byte[1000])))));
            seq += 1000;
        }
        frames.add(new CaptureFiles.Frame(t + 300_000, Frames.ethernet(0x0800, Frames.ipv4(sv, c, 6,
                Frames.tcp(443, 50000, 8001, 101, 0x10, new byte[1000]))))); // resends the second segment
        Path p = Files.write(dir.resolve("tcp.pcapng"), CaptureFiles.pcapngEthernet(frames));
        Summary s = CaptureAnalyzer.analyze(AnalysisOptions.of(p).withTransferBytes(5000L), "t").summary();
        assertEquals("tcp", s.string(PROTOCOL));
        assertEquals("syn_ack", s.string(SERVER_DETECTION));
        assertEquals(6, s.integer(PACKETS));
        assertEquals(1, s.integer(RETRANSMISSIONS));
        assertEquals("capture", s.string(RETRANSMISSIONS_SOURCE));
        assertEquals(3, s.integer(TRAINS)); // {1,2,3} {4,5} {6}
        assertEquals(1.0 / 6, s.number(PTL1_SHARE), 1e-12);
        assertTrue(s.reason(PRECISION_US).contains("TCP"), s.reason(PRECISION_US));
        assertEquals(8.0 * 5000 / (t + 300_000 - (T + 2_000_000)) * 1000, s.number(GOODPUT_WIRE_MBPS), 1e-9);
    }

    @Test
    void serverPortOptionOverridesDetection() throws IOException {
        SyntheticTransfer.Files3 f = transfer(0);
        Summary s = CaptureAnalyzer.analyze(AnalysisOptions.of(f.capture()).withServerPort(50000), "r").summary();
        assertEquals("10.0.0.2:50000", s.string(SERVER));
        assertEquals("server_port_option", s.string(SERVER_DETECTION));
        Summary none = CaptureAnalyzer.analyze(AnalysisOptions.of(f.capture()).withServerPort(9), "r").summary();
        assertEquals("no UDP or TCP packet uses port 9", none.reason(SERVER));
    }
}
