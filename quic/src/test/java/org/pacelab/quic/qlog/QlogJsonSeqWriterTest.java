package org.pacelab.quic.qlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringWriter;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.packet.PacketType;

class QlogJsonSeqWriterTest {

    /** Event times are ms relative to the base, written exactly from integer ns with 6 decimals. */
    @Test
    void timesAreExactMillisecondsWithSixDecimals() {
        StringWriter out = new StringWriter();
        QlogJsonSeqWriter w = new QlogJsonSeqWriter(out, "t", "server", new byte[] {1, 2}, 1000.0, 5_000_000_000L, false);
        long[] times = {5_000_000_000L, 5_000_000_001L, 5_000_123_456L, 5_999_999_999L, 17_000_000_007L, 4_999_999_990L};
        for (long t : times) {
            w.packetSent(t, PacketType.ONE_RTT, 1, 1200, t + 1_000_000L, List.of());
        }
        w.close();
        Matcher m = Pattern.compile("\"time\":(-?[0-9.]+),.*?\"send_at_time\":(-?[0-9.]+)").matcher(out.toString());
        String[][] expected = {{"0.000000", "1.000000"}, {"0.000001", "1.000001"}, {"0.123456", "1.123456"},
                {"999.999999", "1000.999999"}, {"12000.000007", "12001.000007"}, {"-0.000010", "0.999990"}};
        for (String[] e : expected) {
            assertTrue(m.find(), "an event for " + e[0]);
            assertEquals(e[0], m.group(1));
            assertEquals(e[1], m.group(2));
        }
    }
}
