package org.pacelab.io.send;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.pacelab.io.runtime.HybridWait;
import org.pacelab.io.runtime.ParkTightWait;

class SendConfigTest {

    private static Map<String, String> opts(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    @Test
    void defaultsAreTheNativeSocketWithAGsoBufferPerBurstAndBatchedReceivesWithGro() {
        SendConfig c = SendConfig.fromOptions(Map.of());
        assertEquals(SendConfig.DEFAULT, c);
        assertEquals("park", c.waitName());
        assertEquals(SendConfig.Socket.NATIVE, c.socket());
        assertTrue(c.gsoAuto());
        assertEquals(SendConfig.DEFAULT_RECV_BATCH, c.recvBatch());
        assertTrue(c.gro());
        assertEquals(1, c.sendmmsg());
        assertFalse(c.txtime());
        assertEquals(0, c.pacingLookahead());
    }

    @Test
    void theJdkSocketDefaultsToOneCallPerDatagram() {
        assertEquals(SendConfig.PER_DATAGRAM, SendConfig.fromOptions(opts("--socket", "jdk")));
    }

    @Test
    void autoGsoHoldsWhatOneUdpDatagramHolds() {
        SendConfig auto = SendConfig.fromOptions(opts("--gso", "auto"));
        assertEquals(45, auto.gsoLimit(1452));
        assertEquals(54, auto.gsoLimit(1200));
        assertEquals(64, auto.gsoLimit(100));
        assertEquals(16, SendConfig.fromOptions(opts("--gso", "16")).gsoLimit(1452));
        assertFalse(SendConfig.fromOptions(opts("--gso", "1")).gso());
        auto.validateFor(1452);
    }

    @Test
    void everyOptionIsRead() {
        SendConfig c = SendConfig.fromOptions(opts("--send", "Hybrid", "--hybrid-spin", "80us", "--sendmmsg", "8",
                "--gso", "16", "--gso-shrink-on-loss", "on", "--txtime", "on", "--txtime-clock", "tai",
                "--pacing-lookahead", "2ms", "--paced-gso", "on", "--recv-batch", "32", "--gro", "true", "--realtime", "on", "--realtime-priority", "30"));
        assertEquals("hybrid", c.waitName());
        assertEquals(80_000, c.hybridSpin());
        assertEquals(SendConfig.Socket.NATIVE, c.socket());
        assertEquals(8, c.sendmmsg());
        assertEquals(16, c.gsoSegments());
        assertTrue(c.gsoShrinkOnLoss());
        assertTrue(c.txtime());
        assertEquals(TxTimeClock.TAI, c.txtimeClock());
        assertEquals(2_000_000, c.pacingLookahead());
        assertTrue(c.pacedGso());
        assertEquals(32, c.recvBatch());
        assertTrue(c.gro());
        assertTrue(c.realtime());
        assertEquals(30, c.realtimePriority());
        assertTrue(c.waitStrategy() instanceof HybridWait);
    }

    @Test
    void namesWithoutDashesAreAcceptedAsInScenarioFiles() {
        SendConfig c = SendConfig.fromOptions(opts("gso", "4", "send", "park-tight"));
        assertEquals(4, c.gsoSegments());
        assertTrue(c.waitStrategy() instanceof ParkTightWait);
    }

    @Test
    void txtimeDefaultsToTheLookaheadOfTheSimulator() {
        SendConfig c = SendConfig.fromOptions(opts("--txtime", "on"));
        assertEquals(SendConfig.DEFAULT_LOOKAHEAD, c.pacingLookahead());
        assertEquals(TxTimeClock.MONOTONIC, c.txtimeClock());
        assertEquals(SendConfig.Socket.NATIVE, c.socket());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "--send|fq|--send: 'fq' is not a send strategy; valid values are park, park-tight, hybrid, spin.",
            "--gso|65|--gso: 65 segments is out of range; valid: auto, 1 (off) to 64 (Linux UDP_MAX_SEGMENTS).",
            "--gso|0|--gso: 0 segments is out of range; valid: auto, 1 (off) to 64 (Linux UDP_MAX_SEGMENTS).",
            "--gso|many|--gso: 'many' is not a whole number; valid: auto, 1 (off) to 64.",
            "--sendmmsg|0|--sendmmsg: 0 is out of range; valid: 1 (sendmsg) to 1024.",
            "--recv-batch|2000|--recv-batch: 2000 is out of range; valid: 1 (recvmsg) to 1024.",
            "--socket|raw|--socket: 'raw' is not a socket kind; valid values are jdk, native.",
            "--txtime|maybe|--txtime: 'maybe' is not a switch value; valid values are on, off.",
            "--hybrid-spin|fast|--hybrid-spin: 'fast' is not a duration; valid: a number with ns, us, ms or s, e.g. 20ms.",
            "--pacing-lookahead|1ms|--pacing-lookahead needs --txtime: only a qdisc holding packets until their send time can take them early.",
            "--txtime-clock|tai|--txtime-clock needs --txtime: it names the clock of the send times.",
            "--realtime-priority|20|--realtime-priority needs --realtime: it is the event loop's SCHED_FIFO priority."})
    void badValuesGetOneSentenceNamingTheOptionAndTheValidValues(String option, String value, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SendConfig.fromOptions(opts(option, value)));
        assertEquals(message, e.getMessage());
    }

    @Test
    void combinationsAreChecked() {
        assertEquals("--txtime-clock: 'utc' is not a clock; valid values are monotonic, tai.",
                assertThrows(IllegalArgumentException.class,
                        () -> SendConfig.fromOptions(opts("--txtime", "on", "--txtime-clock", "utc"))).getMessage());
        assertEquals("--paced-gso needs --txtime: the kernel spaces the segments from the buffer's send time.",
                assertThrows(IllegalArgumentException.class,
                        () -> SendConfig.fromOptions(opts("--gso", "8", "--paced-gso", "on"))).getMessage());
        assertEquals("--paced-gso needs --gso 2 or more: it paces the segments of GSO buffers.",
                assertThrows(IllegalArgumentException.class,
                        () -> SendConfig.fromOptions(opts("--gso", "1", "--paced-gso", "on", "--txtime", "on"))).getMessage());
        assertEquals("--gso-shrink-on-loss needs --gso 2 or more: it shrinks GSO buffers.",
                assertThrows(IllegalArgumentException.class,
                        () -> SendConfig.fromOptions(opts("--gso", "1", "--gso-shrink-on-loss", "on"))).getMessage());
        assertEquals("--socket jdk cannot do --gro; use --socket native.",
                assertThrows(IllegalArgumentException.class,
                        () -> SendConfig.fromOptions(opts("--socket", "jdk", "--gro", "on"))).getMessage());
        assertEquals("--socket jdk cannot do --sendmmsg, --gso; use --socket native.",
                assertThrows(IllegalArgumentException.class,
                        () -> SendConfig.fromOptions(opts("--socket", "jdk", "--gso", "8", "--sendmmsg", "4"))).getMessage());
    }

    @Test
    void gsoBuffersMustFitOneUdpDatagram() {
        SendConfig c = SendConfig.fromOptions(opts("--gso", "46"));
        assertEquals("--gso 46: 46 segments of 1452 bytes exceed the 65507-byte limit of one UDP GSO buffer; valid: "
                + "at most 45 with datagrams of 1452 bytes.",
                assertThrows(IllegalArgumentException.class, () -> c.validateFor(1452)).getMessage());
        SendConfig.fromOptions(opts("--gso", "45")).validateFor(1452);
        SendConfig.fromOptions(opts("--gso", "54")).validateFor(1200);
    }

    @Property
    void optionsRoundTrip(@ForAll @IntRange(min = 0, max = 64) int gso, @ForAll @IntRange(min = 1, max = 1024) int mmsg,
                          @ForAll @IntRange(min = 1, max = 1024) int recv, @ForAll boolean txtime, @ForAll boolean gro,
                          @ForAll @IntRange(min = 0, max = 3) int waitIndex, @ForAll @IntRange(min = 0, max = 9000) int lookaheadUs) {
        Map<String, String> m = opts("--gso", gso == 0 ? "auto" : Integer.toString(gso), "--sendmmsg", Integer.toString(mmsg),
                "--recv-batch", Integer.toString(recv), "--gro", gro ? "on" : "off", "--txtime", txtime ? "on" : "off",
                "--send", org.pacelab.io.runtime.WaitStrategies.NAMES.get(waitIndex), "--realtime", gro ? "off" : "on");
        if (txtime) {
            m.put("--pacing-lookahead", lookaheadUs + "us");
            m.put("--txtime-clock", lookaheadUs % 2 == 0 ? "tai" : "monotonic");
            if (gso != 1) {
                m.put("--paced-gso", "on");
            }
        }
        SendConfig c = SendConfig.fromOptions(m);
        assertEquals(c, SendConfig.fromOptions(c.toOptions()));
    }

    @Test
    void describeNamesWhatIsOn() {
        assertEquals("park, native, gso auto, recv-batch 64, gro", SendConfig.DEFAULT.describe());
        assertEquals("park, jdk", SendConfig.PER_DATAGRAM.describe());
        assertEquals("hybrid, native, sendmmsg 4, gso 16 (shrink on loss), txtime monotonic +5ms, recv-batch 8, gro",
                SendConfig.fromOptions(opts("--send", "hybrid", "--sendmmsg", "4", "--gso", "16", "--gso-shrink-on-loss", "on",
                        "--txtime", "on", "--recv-batch", "8", "--gro", "on")).describe());
    }
}
