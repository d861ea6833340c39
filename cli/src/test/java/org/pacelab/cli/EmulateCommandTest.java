package org.pacelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.channels.DatagramChannel;
import java.nio.file.Files;
import java.nio.file.Path;
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
    void badAddressIsExitTwo() {
        CliRun r = CliRun.of("emulate", "--listen", "localhost:4433", "--to", "127.0.0.1:9");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("needs a numeric IPv4 or IPv6 address"), r.err());
    }
}
