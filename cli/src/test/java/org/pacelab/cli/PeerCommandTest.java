package org.pacelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code pacelab peer ...}: the four peers are listed, and bad options are one sentence with exit code 2. */
class PeerCommandTest {
    @Test
    void listsTheFourPeersAndSaysTheyDoNotPace() {
        CliRun r = CliRun.of("peer", "--help");
        assertEquals(0, r.code());
        for (String name : new String[] {"quiche-server", "quiche-client", "kwik-server", "kwik-client"}) {
            assertTrue(r.out().contains(name), r.out());
        }
        assertTrue(r.out().contains("None of them paces"), r.out());
        assertTrue(CliRun.of("peer", "quiche-server", "--help").out().contains("does NOT pace"));
    }

    @Test
    void unknownCongestionControllerNamesTheValidOnes() {
        CliRun r = CliRun.of("peer", "quiche-server", "--listen", "127.0.0.1:0", "--cc", "vegas");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("'vegas' is not one of quiche's congestion controllers; valid: reno, cubic, bbr"), r.err());
    }

    @Test
    void hystartTakesOnOrOff() {
        CliRun r = CliRun.of("peer", "quiche-client", "--hystart", "maybe", "https://127.0.0.1:4433/x");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("'maybe' is not on or off"), r.err());
    }

    @Test
    void gsoSegmentsOutOfRangeIsOneSentence() {
        CliRun r = CliRun.of("peer", "quiche-client", "--gso", "100", "https://127.0.0.1:4433/x");
        assertEquals(2, r.code());
        assertEquals("pacelab peer quiche-client: GSO segments must be 0..64, not 100", r.err().strip());
    }

    @Test
    void certWithoutKeyIsRefused(@TempDir Path dir) throws Exception {
        Path cert = Files.writeString(dir.resolve("cert.pem"), "x");
        for (String peer : new String[] {"quiche-server", "kwik-server"}) {
            CliRun r = CliRun.of("peer", peer, "--listen", "127.0.0.1:0", "--cert", cert.toString());
            assertEquals(2, r.code(), r.err());
            assertTrue(r.err().startsWith("pacelab peer " + peer + ": --cert and --key go together"), r.err());
        }
    }

    @Test
    void clientsRefuseBadUrlsAndProtocols() {
        CliRun r = CliRun.of("peer", "kwik-client", "http://127.0.0.1:4433/x");
        assertEquals(2, r.code());
        assertEquals("pacelab peer kwik-client: 'http://127.0.0.1:4433/x' is not an https://host:port/path URL.", r.err().strip());
        r = CliRun.of("peer", "quiche-client", "--alpn", "h2", "https://127.0.0.1:4433/x");
        assertEquals(2, r.code());
        assertEquals("pacelab peer quiche-client: --alpn 'h2' is not supported; valid: h3, hq-interop.", r.err().strip());
        r = CliRun.of("peer", "quiche-client", "https://127.0.0.1:4433/a", "https://127.0.0.1:4434/b");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("all URLs must name the same server"), r.err());
    }

    @Test
    void connectionPerUrlIsOfferedAndRefusesOneJsonLogForManyConnections(@TempDir Path dir) {
        for (String peer : new String[] {"quiche-client", "kwik-client"}) {
            assertTrue(CliRun.of("peer", peer, "--help").out().contains("--connection-per-url"), peer);
            CliRun r = CliRun.of("peer", peer, "--connection-per-url", "--json", dir.resolve("c.json").toString(),
                    "https://127.0.0.1:4433/a", "https://127.0.0.1:4433/b");
            assertEquals(2, r.code(), r.err());
            assertEquals("pacelab peer " + peer + ": --json writes the log of one connection; it cannot be combined with "
                    + "--connection-per-url.", r.err().strip());
        }
    }
}
