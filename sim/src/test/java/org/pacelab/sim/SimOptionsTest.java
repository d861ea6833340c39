package org.pacelab.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.cc.CongestionAlgorithm;
import org.pacelab.sim.host.QdiscConfig;

/** Options as the command line and scenario files give them; bad ones are one sentence naming the option. */
class SimOptionsTest {
    private static final Path OUT = Path.of("out");

    private static SimScenario parse(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return SimOptions.parse(m, OUT);
    }

    private static String error(String... kv) {
        return assertThrows(IllegalArgumentException.class, () -> parse(kv)).getMessage();
    }

    @Test
    void theIssuesExampleParses() {
        SimScenario s = parse("--preset", "quic-steps", "--size", "100MiB", "--cc", "cubic", "--pacer", "interval", "--seed", "7");
        assertEquals(100L << 20, s.transferBytes());
        assertEquals(7, s.seed());
        assertEquals(CongestionAlgorithm.CUBIC, s.congestion().controller().algorithm());
        assertEquals(40_000_000L, s.link().down().rateBps());
        assertEquals("park", s.server().send());
        assertTrue(s.analyze());
    }

    @Test
    void hostOptionsReachTheServersHost() {
        SimScenario s = parse("--send", "hybrid", "--gso", "16", "--paced-gso", "", "--txtime", "on", "--qdisc", "fq",
                "--fq-horizon", "2s", "--pacing-lookahead", "8ms");
        assertEquals("hybrid", s.server().send());
        assertEquals(16, s.server().sendPath().gsoSegments());
        assertTrue(s.server().sendPath().pacedGso());
        assertEquals(8_000_000, s.server().sendPath().pacingLookahead());
        assertEquals(2_000_000_000L, ((QdiscConfig.Fq) s.server().qdisc()).horizonNanos());
        assertEquals("park", s.client().send(), "the client keeps the runtime's default host");
        assertEquals(org.pacelab.sim.host.HostTiming.realtime(), parse("--host-model", "realtime").server().timing());
        assertFalse(s.client().sendPath().txtime());
        assertEquals(5_000_000, parse("--txtime", "", "--qdisc", "etf").server().sendPath().pacingLookahead(),
                "--txtime takes a 5 ms look-ahead unless told otherwise");
    }

    @Test
    void badValuesAreOneSentenceWithTheValidChoices() {
        assertTrue(error("--qdisc", "cake").startsWith("--qdisc: 'cake' is not a modelled qdisc; valid: pfifo, fq, etf"));
        assertEquals("--send: 'sleep' is not a send strategy; valid: park, park-tight, hybrid, spin", error("--send", "sleep"));
        assertTrue(error("--gso", "100").startsWith("--gso: 100 segments is out of range; valid: 1 (off) to 64"));
        assertEquals("--gso: 'lots' is not a whole number", error("--gso", "lots"));
        assertTrue(error("--size", "big").startsWith("--size: 'big' is not a size; use a number with b, kb, mb"));
        assertTrue(error("--pacer", "fq").startsWith("--pacer: 'fq' is not a pacer"));
        assertTrue(error("--cipher", "aes128").startsWith("'--cipher' is not a simulation option; valid: --preset,"));
        assertTrue(error("--preset", "quick-steps").startsWith("unknown preset 'quick-steps'"));
        assertTrue(error("--down", "rate=fast").startsWith("--down rate: 'fast' is not a rate"));
        assertEquals("--txtime: 'maybe' is not a switch value; valid: on, off", error("--txtime", "maybe"));
        assertEquals("--host-model: /nonexistent/h.json is neither a bundled model (default, realtime, ideal) nor a file"
                + " (write one with 'pacelab sim calibrate --out FILE')", error("--host-model", "/nonexistent/h.json"));
    }

    @Test
    void unsupportedCombinationsAreRefused() {
        assertEquals("--txtime needs --qdisc fq or etf: pfifo ignores send times", error("--txtime", ""));
        assertEquals("--qdisc etf needs --txtime: etf drops every packet without a send time", error("--qdisc", "etf"));
        assertEquals("--paced-gso needs --gso 2 or more: it paces the segments of GSO buffers", error("--paced-gso", "", "--txtime", "", "--qdisc", "fq"));
        assertEquals("--paced-gso needs --txtime: the kernel spaces segments from the buffer's send time",
                error("--paced-gso", "", "--gso", "8"));
        assertEquals("--gso and --sendmmsg together (sendmmsg of GSO buffers) are not modelled; choose one",
                error("--gso", "8", "--sendmmsg", "8"));
        assertEquals("--etf-delta applies to --qdisc etf only (the qdisc is fq)", error("--etf-delta", "100us", "--qdisc", "fq"));
        assertEquals("--fq-quantum applies to --qdisc fq only (the qdisc is pfifo)", error("--fq-quantum", "3000b"));
        assertEquals("--pacing-lookahead needs --txtime: only a qdisc holding packets until their send time can take them early",
                error("--pacing-lookahead", "1ms"));
    }
}
