package org.pacelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad input to the emulator's commands gives one sentence, a non-zero exit, and leaves nothing behind. */
class EmulateCommandTest {
    private record Run(int code, String out, String err) { }

    private static Run run(String... args) {
        PrintStream oldOut = System.out, oldErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            int code = Main.run(args);
            return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }

    @Test
    void invalidSpecIsExitTwoWithTheField() {
        Run r = run("emulate", "--listen", "127.0.0.1:0", "--to", "127.0.0.1:9", "--down", "rate=fast");
        assertEquals(2, r.code());
        assertTrue(r.err().startsWith("pacelab emulate: --down rate: 'fast' is not a rate;"), r.err());
        assertEquals(1, r.err().lines().count());
    }

    @Test
    void unknownPresetListsTheValidOnes() {
        Run r = run("emulate", "--listen", "127.0.0.1:0", "--to", "127.0.0.1:9", "--preset", "quick-steps");
        assertEquals(2, r.code());
        assertEquals("pacelab emulate: unknown preset 'quick-steps'; valid presets: quic-steps, interop-simple-p2p, none",
                r.err().strip());
    }

    @Test
    void malformedTraceNamesTheLine(@TempDir Path dir) throws Exception {
        Path trace = Files.writeString(dir.resolve("bad.trace"), "1\n2\nten\n");
        Run r = run("emulate", "--listen", "127.0.0.1:0", "--to", "127.0.0.1:9", "--down", "trace=" + trace,
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
            Run r = run("emulate", "--listen", "127.0.0.1:" + port, "--to", "127.0.0.1:9", "--tap",
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
        Run r = run("emulate", "--listen", "localhost:4433", "--to", "127.0.0.1:9");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("needs a numeric IPv4 or IPv6 address"), r.err());
    }
}
