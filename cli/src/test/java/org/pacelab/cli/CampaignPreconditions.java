package org.pacelab.cli;

import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Assumptions;
import org.pacelab.lab.host.Host;

/** Preconditions of the tagged campaign tests: a failure under CI=true, a skip with the reason otherwise. */
final class CampaignPreconditions {
    private static final Host HOST = new Host();

    private CampaignPreconditions() {}

    static void require(boolean ok, String reason) {
        if (ok) {
            return;
        }
        if ("true".equals(System.getenv("CI"))) {
            fail("precondition missing in CI: " + reason);
        }
        Assumptions.assumeTrue(false, reason);
    }

    static void requireProgram(String program, String debianPackage) {
        require(HOST.which(program).isPresent(), program + " is not installed (apt-get install -y " + debianPackage + ")");
    }

    /** A peer pacelab builds, built in the user's peer cache ({@code ./run-tests} builds them). */
    static void requireBuilt(String peer) {
        var p = org.pacelab.lab.peer.PeerRegistry.standard().get(peer).orElseThrow();
        var launcher = new org.pacelab.lab.peer.PacelabLauncher(java.util.List.of("pacelab"), java.util.Set.of());
        var a = p.availability(org.pacelab.lab.peer.Role.SERVER, HOST, launcher);
        require(a.usable(), a.reason() + " (./run-tests builds it from ../shared/peer-sources)");
    }

    static void requireRoot() {
        require(HOST.isRoot(), "netns mode needs root");
    }
}
