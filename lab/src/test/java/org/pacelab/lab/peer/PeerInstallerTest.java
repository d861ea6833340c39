package org.pacelab.lab.peer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.lab.host.Host;
import org.pacelab.lab.plan.CampaignPlan;
import org.pacelab.lab.testing.Plans;

/**
 * The first-run bug: on a fresh machine (as root) {@code pacelab run} installed ngtcp2 and then skipped it as "not
 * installed", because the host remembered that gtlsserver was missing. Availability is decided after installing.
 */
class PeerInstallerTest {
    private static final String SCENARIO = """
            name: first-run
            unavailable: skip
            implementations:
              - {name: ngtcp2, server: ngtcp2, client: ngtcp2}
            """;

    @TempDir
    Path tmp;

    /** A root host whose programs live in temporary directories only. */
    private static final class FreshHost extends Host {
        FreshHost(Path bin, Path sbin) {
            super(List.of(bin), List.of(sbin));
        }

        @Override
        public boolean isRoot() {
            return true;
        }
    }

    /** Installs ngtcp2's packages by putting its programs where Debian does (sbin). */
    private static PeerInstaller.Packages fakeApt(Path sbin, List<Set<String>> calls) {
        return new PeerInstaller.Packages() {
            @Override
            public String cannotInstall(Host host) {
                return null;
            }

            @Override
            public String install(Set<String> packages, PrintStream out) {
                calls.add(Set.copyOf(packages));
                try {
                    for (String program : List.of("gtlsserver", "gtlsclient")) {
                        Path p = Files.writeString(sbin.resolve(program), "#!/bin/sh\nexit 0\n");
                        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                return null;
            }
        };
    }

    @Test
    void theRunInstallsWhatTheScenarioNeedsAndThenPlansIt() throws Exception {
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        Path sbin = Files.createDirectories(tmp.resolve("sbin"));
        Host host = new FreshHost(bin, sbin);
        List<Set<String>> calls = new ArrayList<>();
        PeerInstaller installer = new PeerInstaller(host, Plans.LAUNCHER, fakeApt(sbin, calls));
        Peer ngtcp2 = PeerRegistry.standard().get("ngtcp2").orElseThrow();

        // what the planner sees before installing: ngtcp2 is missing
        assertTrue(Plans.plan(SCENARIO.replace("ngtcp2}", "ngtcp2}\n  - pacelab"), host).skipped().getFirst()
                .contains("gtlsserver is not installed"));

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PeerInstaller.Result r = installer.install(List.of(ngtcp2), Set.of(), PeerInstaller.Builds.MISSING, new PrintStream(out, true, StandardCharsets.UTF_8));
        assertTrue(r.ok(), r.problems().toString());
        assertEquals(List.of(Set.of("ngtcp2-server", "ngtcp2-client")), calls);

        CampaignPlan plan = Plans.plan(SCENARIO, host);
        assertEquals(List.of(), plan.skipped());
        assertEquals(List.of("ngtcp2"), plan.configurations().stream().map(c -> c.name()).toList());
        assertEquals(Path.of(sbin.toString(), "gtlsserver").toString(), host.resolve(List.of("gtlsserver")).getFirst());
    }

    @Test
    void nothingMissingInstallsNothing() {
        Path sbin = tmp.resolve("none");
        List<Set<String>> calls = new ArrayList<>();
        Host host = new FreshHost(tmp, sbin);
        PeerInstaller.Result r = new PeerInstaller(host, Plans.LAUNCHER, fakeApt(sbin, calls))
                .install(List.of(new PacelabPeer()), Set.of(), PeerInstaller.Builds.MISSING, new PrintStream(new ByteArrayOutputStream()));
        assertTrue(r.ok());
        assertEquals(List.of(), r.installed());
        assertEquals(List.of(), calls);
    }
}
