package org.pacelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The non-root PATH bug, end to end: {@code pacelab run} with a login shell's PATH that lacks /usr/sbin (where Debian
 * puts gtlsserver) plans the ngtcp2 row because it finds the program there, and must then start it by that path.
 */
@Tag("interop")
class PeerPathTest {
    @TempDir
    Path tmp;

    @Test
    void ngtcp2RunsWhenPathLacksTheSbinDirectories() throws Exception {
        CampaignPreconditions.requireProgram("gtlsserver", "ngtcp2-server");
        CampaignPreconditions.requireProgram("gtlsclient", "ngtcp2-client");
        Path s = Files.writeString(tmp.resolve("path.yaml"), """
                name: ci-path
                link: {preset: quic-steps}
                transfer: {size: 1MiB}
                repetitions: 1
                implementations:
                  - {name: ngtcp2, server: ngtcp2, client: ngtcp2, options: {cc: cubic}}
                """);
        String path = "/usr/local/bin:/usr/bin:/bin";
        Path dir = tmp.resolve("campaign");
        CliRun r = CliRun.inChild(tmp, Map.of("PATH", path), "run", s.toString(), "--out", dir.toString(), "--no-install",
                "--retries", "0");
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("1 of 1 runs finished"), r.out());
        assertFalse(r.out().contains("not run on this host"), r.out());
    }
}
