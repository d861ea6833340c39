package org.pacelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code pacelab peers install}'s refusals: one sentence, exit 2, nothing built. */
class PeersInstallCommandTest {
    @TempDir
    Path tmp;

    @Test
    void aSourceThatIsNotAPeerTreeIsRefused() throws Exception {
        Files.writeString(tmp.resolve("README"), "not a source tree");
        CliRun r = CliRun.of("peers", "install", "picoquic", "--source", tmp.toString());
        assertEquals(2, r.code(), r.out() + r.err());
        assertEquals("pacelab peers install: --source " + tmp + " is not a source tree of picoquic or picotls (no "
                + "picoquic/picoquic.h, include/picotls.h), a tarball of one, nor a directory of their snapshots (picoquic-*.tar.gz ...)",
                r.err().strip());
    }

    @Test
    void anUnknownPeerIsRefusedWithTheValidNames() {
        CliRun r = CliRun.of("peers", "install", "picoquik");
        assertEquals(2, r.code());
        assertTrue(r.err().strip().startsWith("pacelab peers install: unknown peer 'picoquik' (did you mean 'picoquic'?); valid: pacelab, ngtcp2, quiche, kwik, "
                + "picoquic, aioquic, quic-go"), r.err());
    }

    @Test
    void theListingSaysWhereBuiltPeersLiveAndShowsEveryVersion() {
        CliRun r = CliRun.of("peers");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().lines().anyMatch(l -> l.startsWith("picoquic  ")), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.strip().startsWith("version: picoquic ")), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.strip().startsWith("version: quic-go ")), r.out());
        assertTrue(r.out().contains("Peers pacelab builds live in "), r.out());
    }
}
