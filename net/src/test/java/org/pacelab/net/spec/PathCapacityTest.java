package org.pacelab.net.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PathCapacityTest {
    @TempDir
    Path dir;

    @Test
    void quicStepsSharedLimitPlusTheUplinksDelay() throws SpecException {
        // 143 packets shared with the 20 ms downlink delay line, plus 20 ms of acknowledgements at 40 Mbit/s
        assertEquals(143 * 1500 + 100_000, PathCapacity.bytes(LinkSpecParser.parse("quic-steps", null, null)));
    }

    @Test
    void aSeparateQueueAddsToTheBdpOfBothDelays() throws SpecException {
        LinkSpec l = LinkSpecParser.parse("none", "rate=100mbit delay=25ms queue=0.5bdp", "delay=25ms");
        assertEquals(625_000 + 312_500, PathCapacity.bytes(l));
        LinkSpec p = LinkSpecParser.parse("none", "rate=10mbit delay=5ms queue=20p", "delay=15ms");
        assertEquals(25_000 + 20 * 1200, PathCapacity.bytes(p, 1200));
    }

    @Test
    void aTraceCountsWithItsMeanRateAndUnlimitedLinksHaveNone() throws SpecException, IOException {
        // 4 opportunities of 1500 bytes in a 4 ms period: 12 Mbit/s
        Path trace = Files.writeString(dir.resolve("t.down"), "1\n2\n3\n4\n");
        LinkSpec l = LinkSpecParser.parse("none", "trace=" + trace + " delay=10ms queue=10p", "delay=10ms");
        assertEquals(30_000 + 15_000, PathCapacity.bytes(l));
        assertEquals(-1, PathCapacity.bytes(LinkSpecParser.parse("none", "delay=10ms", "delay=10ms")));
        assertEquals(-1, PathCapacity.bytes(LinkSpecParser.parse("none", "rate=10mbit delay=10ms", "delay=10ms")));
    }
}
