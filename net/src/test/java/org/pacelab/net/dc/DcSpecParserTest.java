package org.pacelab.net.dc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.net.link.Jitter;
import org.pacelab.net.link.LinkObserver;
import org.pacelab.net.spec.SpecException;

class DcSpecParserTest {
    @Test
    void defaultsAreTheStudysStructure() throws SpecException {
        DcSpec d = DcSpecParser.parse(null, null, null, null);
        assertEquals(new SplitPolicy.Batches(100, SplitRatio.EVEN), d.split());
        assertEquals(ReorderingConfig.DEFAULT, d.reordering());
        assertEquals("rate=20mbit queue=100p delay=10ms jitter=normal:cov=0.1 wire=off", d.a().format());
        assertEquals(d.a(), d.b());
        assertEquals("rate=unlimited queue=unlimited delay=10ms wire=off", d.up().format());
        assertEquals("split=batch batch=100 ratio=1:1 t-reordering=200ms sn=18 wire=1gbit", d.format());
        assertEquals(new Jitter.Normal(0.1, 0), d.a().jitter());
    }

    @Test
    void fieldsPrefixesAndSeparateOptionsCombine() throws SpecException {
        DcSpec d = DcSpecParser.parse("batch=150 ratio=90% t-reordering=100ms sn=12 wire=off a.rate=40mbit b.delay=50ms "
                + "up.delay=5ms", "loss=1%", "rate=8mbit", "delay=7ms");
        assertEquals(new SplitPolicy.Batches(150, new SplitRatio(9, 1)), d.split());
        assertEquals(new ReorderingConfig(12, 100_000_000L, false), d.reordering());
        assertEquals(40_000_000L, d.a().rateBps());
        assertEquals(0.01, d.a().loss().p(), 1e-12);
        assertEquals(8_000_000L, d.b().rateBps());
        assertEquals(50_000_000L, d.b().delayNs());
        assertEquals(7_000_000L, d.up().delayNs());
        assertEquals(0, d.wireBps());
        assertEquals(new SplitPolicy.Duplicate(), DcSpecParser.parse("split=duplicate", null, null, null).split());
        assertEquals(new SplitPolicy.Single(DcPath.B), DcSpecParser.parse("split=b", null, null, null).split());
        assertTrue(DcSpecParser.parse("reordering=off", null, null, null).reordering().outOfOrderDelivery());
        DcSpec held = DcSpecParser.parse("reordering=hold-limit t-reordering=100ms", null, null, null);
        assertEquals(new ReorderingConfig(18, 100_000_000L, false, true), held.reordering());
        assertEquals("split=batch batch=100 ratio=1:1 t-reordering=100ms reordering=hold-limit sn=18 wire=1gbit", held.format());
        assertEquals(held, DcSpecParser.parse(held.format(), null, null, null));
        assertFalse(DcSpecParser.parse("reordering=on", null, null, null).reordering().holdLimit());
        SpecException e = org.junit.jupiter.api.Assertions.assertThrows(SpecException.class,
                () -> DcSpecParser.parse("reordering=per-packet", null, null, null));
        assertEquals("--dc reordering: 'per-packet' is not on, off or hold-limit (in order, each packet held at most "
                + "t-reordering)", e.getMessage());
        assertEquals(100, ((SplitPolicy.Batches) DcSpecParser.parse("batch=100p", null, null, null).split()).packets());
        DcSpec sp = DcSpecParser.parse("single-path=in-order", null, null, null);
        assertEquals(new ReorderingConfig(18, 200_000_000L, false, false, true), sp.reordering());
        assertEquals("split=batch batch=100 ratio=1:1 t-reordering=200ms single-path=in-order sn=18 wire=1gbit", sp.format());
        assertEquals(sp, DcSpecParser.parse(sp.format(), null, null, null));
        assertEquals(ReorderingConfig.DEFAULT, DcSpecParser.parse("single-path=pass-through", null, null, null).reordering());
        assertTrue(DcSpecParser.parse("reordering=hold-limit single-path=In-Order", null, null, null).reordering()
                .singlePathInOrder());
        assertEquals("--dc single-path: 'held' is not a single-path receiver; use pass-through (delivered as the path "
                + "delivers, the default) or in-order (held in PDCP order like split flows)", error("single-path=held"));
        assertEquals("--dc single-path: in-order needs an in-order receiver, but reordering=off delivers every flow at "
                + "once; use reordering=on or hold-limit, or single-path=pass-through",
                error("reordering=off single-path=in-order"));
    }

    @Test
    void bothPathsAtOnceAndAMatchedRatio() throws SpecException {
        DcSpec d = DcSpecParser.parse("rate=50mbit:10mbit delay=5ms:15ms loss=1% queue=80p ratio=matched b.delay=20ms", null,
                null, null);
        assertEquals(50_000_000L, d.a().rateBps());
        assertEquals(10_000_000L, d.b().rateBps());
        assertEquals(5_000_000L, d.a().delayNs());
        assertEquals(20_000_000L, d.b().delayNs()); // b. fields come after the fields for both paths
        assertEquals(0.01, d.a().loss().p(), 1e-12);
        assertEquals(0.01, d.b().loss().p(), 1e-12);
        assertEquals(new SplitPolicy.Batches(100, new SplitRatio(5, 1)), d.split());
        assertEquals(new SplitPolicy.Batches(100, new SplitRatio(1, 1)),
                DcSpecParser.parse("ratio=matched rate=20mbit", null, null, null).split());
        assertTrue(error("ratio=matched b.trace=x.down").startsWith("--dc ratio: matched needs a fixed rate on both paths"));
        assertTrue(error("delay=5ms:").startsWith("--dc delay: '5ms:' is not one value or A:B"));
        assertTrue(error("loss=ge:p=1%,r=10%").startsWith("--dc loss: Gilbert-Elliott loss goes on one path at a time"));
        assertTrue(error("rate=fast:10mbit").startsWith("--dc (path a) rate: 'fast' is not a rate"));
    }

    private static String error(String dc) {
        return assertThrows(SpecException.class, () -> DcSpecParser.parse(dc, null, null, null)).getMessage();
    }

    @Test
    void badInputGetsOneSentenceNamingTheField() {
        assertEquals("--dc batch: '0' must be at least 1 packet", error("batch=0"));
        assertEquals("--dc batch: 'many' is not a batch size; give a number of packets, e.g. 100", error("batch=many"));
        assertTrue(error("ratio=1/2").startsWith("--dc ratio: '1/2' is not a split ratio; write A:B"));
        assertTrue(error("ratio=0:0").startsWith("--dc ratio: '0:0' sums to zero"));
        assertEquals("--dc split: 'round-robin' is not a split; use batch, duplicate, a or b", error("split=round-robin"));
        assertEquals("--dc sn: '16' is not a PDCP SN size; use 12 or 18 (bits)", error("sn=16"));
        assertTrue(error("colour=blue").startsWith("--dc: unknown key 'colour'; valid keys: split, batch"));
        assertTrue(error("c.rate=1mbit").startsWith("--dc: 'c.rate' names no path"));
        assertTrue(error("a.rate=fast").startsWith("--dc a. rate: 'fast' is not a rate"));
        assertTrue(error("a.wire=1gbit").startsWith("path a wire: the access-link wire model sits before the splitter"));
        assertTrue(error("batch").startsWith("--dc: 'batch' is not a key=value field"));
    }

    /** Exponents that BigDecimal accepts but no ratio needs are refused before any rescaling (a fuzzer finding). */
    @Test
    void hugeExponentsAreRefusedWithoutBuildingTheNumber() {
        assertTrue(error("ratio=7:1e1000000100").startsWith("--dc ratio: '7:1e1000000100' is too large; write A:B"));
        assertTrue(error("ratio=9:1e100000000").startsWith("--dc ratio: '9:1e100000000' is too large"));
        assertTrue(error("ratio=1e-1000000000%").startsWith("--dc ratio: '1e-1000000000%' has more than 9 decimals"));
        assertTrue(error("ratio=1:1e-10").startsWith("--dc ratio: '1:1e-10' has more than 9 decimals"));
        assertTrue(error("ratio=99999999999999:1").startsWith("--dc ratio: '99999999999999:1' is too large"));
    }

    @Test
    void aMissingTraceFileIsNamed(@TempDir Path dir) throws SpecException {
        Path missing = dir.resolve("no-such.down");
        DcSpec d = DcSpecParser.parse("b.trace=" + missing, null, null, null);
        SpecException e = assertThrows(SpecException.class, () -> DcFactory.build(d, 1, 0, LinkObserver.NONE));
        assertEquals("path b: trace file " + missing + " does not exist", e.getMessage());
    }

    @Test
    void tracePathsPlayTheirTrace(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("t.down");
        Files.writeString(trace, "1\n1\n2\n");
        DcSpec d = DcSpecParser.parse("a.trace=" + trace + " b.rate=10mbit", null, null, null);
        assertEquals(trace.toString(), d.a().trace());
        DcFactory.build(d, 1, 0, LinkObserver.NONE);
    }
}
