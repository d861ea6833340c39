package org.pacelab.quic.qlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.packet.PacketType;

class QlogJsonSeqWriterTest {

    /** Event times are ms relative to the base, written exactly from integer ns with 6 decimals. */
    @Test
    void timesAreExactMillisecondsWithSixDecimals() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        QlogJsonSeqWriter w = new QlogJsonSeqWriter(out, "t", "server", new byte[] {1, 2}, 1000.0, 5_000_000_000L, false, false);
        long[] times = {5_000_000_000L, 5_000_000_001L, 5_000_123_456L, 5_999_999_999L, 17_000_000_007L, 4_999_999_990L};
        for (long t : times) {
            w.packetSent(t, PacketType.ONE_RTT, 1, 1200, t + 1_000_000L, List.of());
        }
        w.close();
        Matcher m = Pattern.compile("\"time\":(-?[0-9.]+),.*?\"send_at_time\":(-?[0-9.]+)").matcher(out.toString(StandardCharsets.UTF_8));
        String[][] expected = {{"0.000000", "1.000000"}, {"0.000001", "1.000001"}, {"0.123456", "1.123456"},
                {"999.999999", "1000.999999"}, {"12000.000007", "12001.000007"}, {"-0.000010", "0.999990"}};
        for (String[] e : expected) {
            assertTrue(m.find(), "an event for " + e[0]);
            assertEquals(e[0], m.group(1));
            assertEquals(e[1], m.group(2));
        }
    }

    /** The one digit writer of times and RTTs: whole digits, a point, the fraction's lowest digits with leading zeros. */
    @Test
    void decimalsAreWrittenFromTheRight() {
        char[] b = new char[28];
        assertEquals("0.000000", text(b, QlogJsonSeqWriter.decimal(0, 0, 6, b)));
        assertEquals("0.0", text(b, QlogJsonSeqWriter.decimal(0, 0, 1, b)));
        assertEquals("0.000005", text(b, QlogJsonSeqWriter.decimal(0, 5, 6, b)));
        assertEquals("0.999999", text(b, QlogJsonSeqWriter.decimal(0, 999_999, 6, b)));
        assertEquals("1.000000", text(b, QlogJsonSeqWriter.decimal(1, 0, 6, b)));
        assertEquals("25.0001", text(b, QlogJsonSeqWriter.decimal(25, 1, 4, b)));
        assertEquals("9223372036854.775807",
                text(b, QlogJsonSeqWriter.decimal(Long.MAX_VALUE / 1_000_000, Long.MAX_VALUE % 1_000_000, 6, b)));
        assertEquals("9223372036854775807.0", text(b, QlogJsonSeqWriter.decimal(Long.MAX_VALUE, 0, 1, b)));
    }

    /** Event times are the exact decimal ns / 10^6 with 6 decimals, at 0, the rounding edges and large values. */
    @Test
    void timesAreTheExactDecimalOfTheNanoseconds() {
        List<Long> times = new java.util.ArrayList<>(List.of(0L, 1L, -1L, 999_999L, 1_000_000L, 1_000_001L, -999_999L,
                -1_000_000L, 9_999_999_999_999L, 10_000_000_000_000L, Long.MAX_VALUE, -Long.MAX_VALUE));
        java.util.SplittableRandom r = new java.util.SplittableRandom(16);
        for (int i = 0; i < 2_000; i++) {
            times.add(r.nextLong());
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        QlogJsonSeqWriter w = new QlogJsonSeqWriter(out, "t", "server", new byte[] {1, 2}, 1000.0, 0L, false, false);
        for (long t : times) {
            w.congestionStateUpdated(t, "a", "b");
        }
        w.close();
        Matcher m = Pattern.compile("\"time\":(-?[0-9.]+),").matcher(out.toString(StandardCharsets.UTF_8));
        for (long t : times) {
            assertTrue(m.find(), "an event at " + t);
            assertEquals(new java.math.BigDecimal(java.math.BigInteger.valueOf(t), 6).toPlainString(), m.group(1));
        }
    }

    private static String text(char[] b, int from) {
        return new String(b, from, b.length - from);
    }

    /**
     * The RTTs of metrics_updated are written from digits as the double ns / 1e6 printed itself
     * (Double.toString): the same text at the range's edges, every magnitude and random values, and the E notation
     * outside it left to the double.
     */
    @Test
    void rttMillisecondsAreTheDoublesText() {
        char[] b = new char[28];
        java.util.SplittableRandom r = new java.util.SplittableRandom(14);
        List<Long> values = new java.util.ArrayList<>(List.of(1_000L, 1_001L, 1_500L, 9_999L, 10_000L, 999_999L, 1_000_000L,
                1_000_001L, 25_000_000L, 25_123_456L, 100_000_000L, 9_999_999_999_999L, 1_234_567_890_123L));
        for (int i = 0; i < 300_000; i++) {
            long bound = 10_000L * (long) Math.pow(10, r.nextInt(10)); // 10^4 .. 10^13
            values.add(r.nextLong(1_000L, Math.min(bound, 10_000_000_000_000L)));
        }
        for (long exp = 1_000L; exp < 10_000_000_000_000L; exp *= 10) {
            for (long d = -3; d <= 3; d++) {
                if (exp + d >= 1_000L) {
                    values.add(exp + d);
                }
                values.add(exp * 7 + d);
            }
        }
        for (long ns : values) {
            int from = QlogJsonSeqWriter.millisDigits(ns, b);
            assertTrue(from >= 0, "digits for " + ns);
            assertEquals(Double.toString(ns / 1e6), new String(b, from, b.length - from), "ns = " + ns);
        }
        for (long ns : new long[] {0L, 1L, 999L, -5L, 10_000_000_000_000L, Long.MAX_VALUE}) {
            assertEquals(-1, QlogJsonSeqWriter.millisDigits(ns, b), "left to the double: " + ns);
        }
        // and in the file: an RTT of 0.5 us (E notation) and of 25 ms
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        QlogJsonSeqWriter w = new QlogJsonSeqWriter(out, "t", "server", new byte[] {1, 2}, 1000.0, 0L, false, false);
        w.metricsUpdated(1_000L, 500L, 25_000_000L, 25_000_100L, 0L, 12_000L, 1_200L, Long.MAX_VALUE, 0L);
        w.close();
        String text = out.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("\"min_rtt\":5.0E-4,\"smoothed_rtt\":25.0,\"latest_rtt\":25.0001,\"rtt_variance\":0.0,"), text);
    }

    /** RFC 7464 framing: each record is RS, a JSON text, LF; text is UTF-8. */
    @Test
    void recordsAreRsJsonLfInUtf8() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        QlogJsonSeqWriter w = new QlogJsonSeqWriter(out, "t", "client", new byte[] {(byte) 0xab}, 1000.0, 0, false, false);
        w.congestionStateUpdated(2_500_000L, "slow_start", "recovery");
        w.connectionClosed(3_000_000L, true, 0, true, "fertig \u00fcber \u2713");
        w.close();
        String text = out.toString(StandardCharsets.UTF_8);
        String[] records = text.split("\u001e", -1);
        assertEquals(4, records.length, text);
        assertEquals("", records[0]);
        assertTrue(records[1].startsWith("{\"qlog_version\":\"0.3\""), records[1]);
        assertTrue(records[1].contains("\"group_id\":\"ab\""), records[1]);
        assertEquals(" {\"time\":2.500000,\"name\":\"recovery:congestion_state_updated\","
                + "\"data\":{\"old\":\"slow_start\",\"new\":\"recovery\"}}\n", records[2]);
        assertEquals(" {\"time\":3.000000,\"name\":\"connectivity:connection_closed\",\"data\":{\"owner\":\"local\","
                + "\"application_code\":0,\"reason\":\"fertig \u00fcber \u2713\"}}\n", records[3]);
        for (String r : List.of(records[1], records[2], records[3])) {
            assertTrue(r.endsWith("}\n"), r);
        }
    }

    /** A live process's qlog has every record in the stream as soon as it is written; a batch one on close. */
    @Test
    void recordsReachTheStreamPerRecordOnlyWhenAskedTo() {
        ByteArrayOutputStream live = new ByteArrayOutputStream();
        ByteArrayOutputStream batch = new ByteArrayOutputStream();
        QlogJsonSeqWriter l = new QlogJsonSeqWriter(live, "t", "server", new byte[] {1}, 1000.0, 0, false, true);
        QlogJsonSeqWriter b = new QlogJsonSeqWriter(batch, "t", "server", new byte[] {1}, 1000.0, 0, false, false);
        int afterHeader = live.size();
        assertTrue(afterHeader > 0);
        l.packetLost(1_000_000L, PacketType.ONE_RTT, 7, "reordering_threshold");
        b.packetLost(1_000_000L, PacketType.ONE_RTT, 7, "reordering_threshold");
        assertTrue(live.size() > afterHeader);
        assertTrue(live.toString(StandardCharsets.UTF_8).endsWith("\"trigger\":\"reordering_threshold\"}}\n"));
        assertEquals(0, batch.size());
        l.close();
        b.close();
        assertEquals(live.toString(StandardCharsets.UTF_8), batch.toString(StandardCharsets.UTF_8));
    }
}
