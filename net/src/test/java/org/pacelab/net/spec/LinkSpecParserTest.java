package org.pacelab.net.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.pacelab.net.link.Jitter;
import org.pacelab.net.link.QueueLimit;

class LinkSpecParserTest {
    @Test
    void quicStepsPresetIsTheStudysTestbed() throws Exception {
        LinkSpec s = Presets.get("quic-steps");
        assertEquals("rate=40mbit burst=1540b overhead=14b queue=143p shared=on delay=20ms wire=1gbit", s.down().format());
        assertEquals("rate=unlimited queue=1000p shared=on delay=20ms wire=off", s.up().format());
    }

    @Test
    void overridesApplyOverThePreset() throws Exception {
        LinkSpec s = LinkSpecParser.parse("quic-steps", "rate=5mbps delay=10ms jitter=normal:cov=0.1 loss=1% queue=2bdp", "delay=5ms");
        assertEquals(40_000_000L, s.down().rateBps());
        assertEquals(10_000_000L, s.down().delayNs());
        assertEquals(new Jitter.Normal(0.1, 0), s.down().jitter());
        assertEquals(0.01, s.down().loss().p(), 1e-12);
        assertEquals(1540, s.down().burstBytes());
        // 2 BDP at 40 Mbit/s and an RTT of 10 + 5 ms = 2 * 75000 bytes
        assertEquals(QueueLimit.ofBytes(150_000), LinkFactory.model(s, s.down(), 0).queueLimit());
    }

    @Test
    void grammarCoversEveryField() throws Exception {
        DirectionSpec d = LinkSpecParser.apply("--down", DirectionSpec.UNSHAPED,
                "rate=10mbit queue=64kb delay=1ms jitter=uniform:±2ms reorder=on loss=ge:p=1%,r=30%,bad=50% corrupt=0.1% "
                        + "duplicate=0.2 wire=1gbit wire-overhead=24b overhead=2b rtt=40ms shared=off");
        assertEquals(65536, (long) d.queue().value());
        assertEquals(new Jitter.Uniform(2_000_000L), d.jitter());
        assertTrue(d.reorder());
        assertEquals(0.5, d.loss().lossBad(), 1e-12);
        assertEquals(0.001, d.corrupt().probability(), 1e-12);
        assertEquals(0.2, d.duplicate(), 1e-12);
        assertEquals(24, d.wireOverheadBytes());
        assertEquals(d, LinkSpecParser.apply("--down", DirectionSpec.UNSHAPED, d.format()));
    }

    @Test
    void interopRunnerImpairmentsRoundTrip() throws Exception {
        DirectionSpec d = LinkSpecParser.apply("--down", Presets.get("interop-simple-p2p").down(),
                "loss=2%,burst=3 corrupt=30%,burst=3,within=50b,change=byte blackhole=5s/2s,repeat=2 drops=2-4,7");
        assertEquals(3, d.loss().maxBurst());
        assertEquals(new CorruptSpec(0.3, 3, 50, true), d.corrupt());
        assertEquals(new BlackholeSpec(5_000_000_000L, 2_000_000_000L, 2), d.blackhole());
        assertEquals(java.util.List.of(2L, 3L, 4L, 7L), d.drops());
        assertEquals(d, LinkSpecParser.apply("--down", DirectionSpec.UNSHAPED, d.format()));
        assertTrue(LinkFactory.model(new LinkSpec("x", d, d), d, 0).loss() instanceof org.pacelab.net.link.LossModel.BurstLimited);
        assertEquals("--up blackhole: '5s' has no OPEN/CLOSED times; write blackhole=OPEN/CLOSED[,repeat=N], e.g. "
                        + "blackhole=5s/2s (open 5 s, then dark 2 s)",
                assertThrows(SpecException.class, () -> LinkSpecParser.parse("none", null, "blackhole=5s")).getMessage());
        assertEquals("--down drops: '7-3' is not a position or an ascending range from 1; write 1-based packet positions "
                        + "such as drops=2,3,4 or drops=2-7",
                assertThrows(SpecException.class, () -> LinkSpecParser.parse("none", "drops=7-3", null)).getMessage());
        assertEquals("--down corrupt change: 'nibble' is not bit or byte",
                assertThrows(SpecException.class, () -> LinkSpecParser.parse("none", "corrupt=1%,change=nibble", null)).getMessage());
        assertEquals("--down loss burst: '0' is not a positive whole number; use a number of packets, e.g. loss=30%,burst=3",
                assertThrows(SpecException.class, () -> LinkSpecParser.parse("none", "loss=30%,burst=0", null)).getMessage());
    }

    @Test
    void aCommaWithoutValuesIsOneSentenceNotACrash() {
        // found by the fuzzer (LinkSpecFuzzTestInputs/linkSpec/crash-corrupt-comma-only): "x".split(",") of a bare
        // comma is an empty array
        assertEquals("--down corrupt: ',' has no probability; write corrupt=P[,burst=N][,within=SIZE][,change=bit|byte], "
                        + "e.g. corrupt=1%",
                assertThrows(SpecException.class, () -> LinkSpecParser.parse("none", "corrupt=,", null)).getMessage());
        assertTrue(assertThrows(SpecException.class, () -> LinkSpecParser.parse("none", "blackhole=,", null))
                .getMessage().startsWith("--down blackhole: ',' has no OPEN/CLOSED times"));
    }

    /**
     * Drop lists are bounded before the loop that expands them: a position near Long.MAX_VALUE made {@code i++} wrap
     * and never end, and many ranges filled the heap (fuzz audit; LinkSpecFuzzTestInputs/linkSpec/drops-*).
     */
    @Test
    void dropListsAreBoundedInPositionAndInTotal() throws Exception {
        assertEquals("--down drops: '9223372036854775807' is beyond position 1099511627776; write 1-based packet "
                        + "positions such as drops=2,3,4 or drops=2-7, at most 1099511627776",
                assertThrows(SpecException.class, () -> LinkSpecParser.parse("none", "drops=9223372036854775807", null))
                        .getMessage());
        assertTrue(assertThrows(SpecException.class,
                        () -> LinkSpecParser.parse("none", "drops=9223372036854775800-9223372036854775807", null))
                .getMessage().startsWith("--down drops: '9223372036854775800-9223372036854775807' is beyond position"));
        assertEquals("--down drops: '60001-100001' takes the list past 100000 positions; write 1-based packet positions "
                        + "such as drops=2,3,4 or drops=2-7, at most 100000 in all",
                assertThrows(SpecException.class, () -> LinkSpecParser.parse("none", "drops=1-60000,60001-100001", null))
                        .getMessage());
        // repeats count too: each costs its lookups in the set
        assertTrue(assertThrows(SpecException.class,
                        () -> LinkSpecParser.parse("none", "drops=" + "1-40000,".repeat(3), null))
                .getMessage().startsWith("--down drops: '1-40000' takes the list past 100000 positions"));
        assertEquals(100_000, LinkSpecParser.parse("none", "drops=1-100000", null).down().drops().size());
        assertEquals(java.util.List.of(3L, 1L << 40),
                LinkSpecParser.parse("none", "drops=1099511627776,3", null).down().drops());
    }

    @Test
    void badInputGetsOneSentenceNamingTheField() {
        assertEquals("--down rate: '40mb/s' is not a rate; use a number with bit, kbit, mbit, gbit (bits/s) or bps, kbps, "
                + "mbps, gbps (bytes/s, as in tc), e.g. 40mbit",
                assertThrows(SpecException.class, () -> LinkSpecParser.parse("quic-steps", "rate=40mb/s", null)).getMessage());
        assertEquals("--up: unknown key 'dealy'; valid keys: " + LinkSpecParser.KEYS,
                assertThrows(SpecException.class, () -> LinkSpecParser.parse("quic-steps", null, "dealy=20ms")).getMessage());
        assertEquals("unknown preset 'quic-step'; valid presets: quic-steps, interop-simple-p2p, none",
                assertThrows(SpecException.class, () -> Presets.get("quic-step")).getMessage());
        assertTrue(assertThrows(SpecException.class, () -> LinkSpecParser.parse("none", "queue=12x", null))
                .getMessage().startsWith("--down queue: '12x' is not a queue size"));
        assertTrue(assertThrows(SpecException.class, () -> LinkSpecParser.parse("none", "loss=150%", null))
                .getMessage().startsWith("--down loss: '150%' is not a probability"));
        assertTrue(assertThrows(SpecException.class, () -> LinkSpecParser.parse("none", "delay", null))
                .getMessage().startsWith("--down: 'delay' is not a key=value field"));
        assertTrue(assertThrows(SpecException.class, () -> LinkSpecParser.parse("none", "jitter=gauss", null))
                .getMessage().startsWith("--down jitter: 'gauss' is not a jitter"));
        assertTrue(assertThrows(SpecException.class, () -> LinkSpecParser.parse("none", "queue=2bdp", null))
                .getMessage().startsWith("--down queue: a queue in bdp needs a rate"));
        assertTrue(assertThrows(SpecException.class, () -> LinkSpecParser.parse("none", "loss=ge:p=1%", null))
                .getMessage().contains("needs p and r"));
        assertTrue(assertThrows(SpecException.class, () -> LinkFactory.build(
                LinkSpecParser.parse("none", "trace=/nonexistent/trace.down", null), 1, 0, (a, b, c, d, e, f) -> { }))
                .getMessage().contains("does not exist"));
    }

    @Test
    void unitsFollowTc() throws Exception {
        assertEquals(40_000_000L, Units.parseRate("x", "40mbit"));
        assertEquals(40_000_000L, Units.parseRate("x", "5mbps"));
        assertEquals(1_000_000_000L, Units.parseRate("x", "1gbit"));
        assertEquals(200_000L, Units.parseDuration("x", "200us"));
        assertEquals(1540, Units.parseSize("x", "1540b"));
        assertEquals(64 * 1024, Units.parseSize("x", "64kb"));
    }
}
