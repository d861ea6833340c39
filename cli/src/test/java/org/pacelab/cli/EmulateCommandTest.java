package org.pacelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.channels.DatagramChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad input to the emulator's commands gives one sentence, a non-zero exit, and leaves nothing behind. */
class EmulateCommandTest {
    @Test
    void invalidSpecIsExitTwoWithTheField() {
        CliRun r = CliRun.of("emulate", "--listen", "127.0.0.1:0", "--to", "127.0.0.1:9", "--down", "rate=fast");
        assertEquals(2, r.code());
        assertTrue(r.err().startsWith("pacelab emulate: --down rate: 'fast' is not a rate;"), r.err());
        assertEquals(1, r.err().lines().count());
    }

    @Test
    void unknownPresetListsTheValidOnes() {
        CliRun r = CliRun.of("emulate", "--listen", "127.0.0.1:0", "--to", "127.0.0.1:9", "--preset", "quick-steps");
        assertEquals(2, r.code());
        assertEquals("pacelab emulate: unknown preset 'quick-steps'; valid presets: quic-steps, interop-simple-p2p, none",
                r.err().strip());
    }

    @Test
    void malformedTraceNamesTheLine(@TempDir Path dir) throws Exception {
        Path trace = Files.writeString(dir.resolve("bad.trace"), "1\n2\nten\n");
        CliRun r = CliRun.of("emulate", "--listen", "127.0.0.1:0", "--to", "127.0.0.1:9", "--down", "trace=" + trace,
                "--log", dir.resolve("e.bin").toString());
        assertEquals(2, r.code());
        assertEquals("pacelab emulate: " + trace + ":3: 'ten' is not a whole number of milliseconds", r.err().strip());
        try (var files = Files.list(dir)) {
            assertEquals(1, files.count(), "nothing but the trace is left");
        }
    }

    @Test
    void addressInUseIsOneSentence(@TempDir Path dir) throws Exception {
        try (DatagramChannel taken = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
            int port = ((InetSocketAddress) taken.getLocalAddress()).getPort();
            CliRun r = CliRun.of("emulate", "--listen", "127.0.0.1:" + port, "--to", "127.0.0.1:9", "--tap",
                    dir.resolve("t.pcapng").toString());
            assertEquals(3, r.code());
            assertEquals("pacelab emulate: --listen: cannot bind 127.0.0.1:" + port + ": address already in use (another "
                    + "process is bound to it; choose another port or stop that process)", r.err().strip());
            try (var files = Files.list(dir)) {
                assertEquals(0, files.count(), "no partial capture is left");
            }
        }
    }

    @Test
    void aBadWarmUpValueIsOneSentenceWithTheValidChoices() {
        CliRun r = CliRun.of("emulate", "--listen", "127.0.0.1:0", "--to", "127.0.0.1:9", "--warmup", "soon");
        assertEquals(2, r.code());
        assertEquals("pacelab emulate: --warmup: 'soon' is not valid; use off, on (30000 packets) or a number of packets "
                + "from 100 to 10000000", r.err().strip());
        CliRun netns = CliRun.of("netns", "up", "--warmup", "0");
        assertEquals(2, netns.code());
        assertEquals("pacelab netns: --warmup: '0' is not valid; use off, on (30000 packets) or a number of packets "
                + "from 100 to 10000000", netns.err().strip());
    }

    @Test
    void theWarmUpSaysWhatItDidBeforeTheRelayListens(@TempDir Path dir) {
        CliRun r = CliRun.of("emulate", "--listen", "127.0.0.1:0", "--to", "127.0.0.1:9", "--warmup", "1000", "--duration",
                "200ms", "--tap", dir.resolve("t.pcapng").toString());
        assertEquals(0, r.code(), r.err());
        List<String> lines = r.out().lines().toList();
        int warm = lines.stream().filter(l -> l.startsWith("warm-up: 1000 packets ")).findFirst().map(lines::indexOf).orElse(-1);
        int relaying = lines.stream().filter(l -> l.startsWith("relaying ")).findFirst().map(lines::indexOf).orElse(-1);
        assertTrue(warm >= 0 && relaying > warm, r.out());
        assertTrue(r.out().contains("emulator: 0 datagrams in, 0 out"), "nothing of the warm-up in the counters: " + r.out());
        CliRun off = CliRun.of("emulate", "--listen", "127.0.0.1:0", "--to", "127.0.0.1:9", "--duration", "100ms");
        assertEquals(0, off.code(), off.err());
        assertTrue(off.out().lines().anyMatch(l -> l.equals(org.pacelab.net.driver.WarmUp.OFF)), off.out());
    }

    @Test
    void badAddressIsExitTwo() {
        CliRun r = CliRun.of("emulate", "--listen", "localhost:4433", "--to", "127.0.0.1:9");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("needs a numeric IPv4 or IPv6 address"), r.err());
    }
}
