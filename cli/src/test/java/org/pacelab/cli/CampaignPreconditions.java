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

    static void requireRoot() {
        require(HOST.isRoot(), "netns mode needs root");
    }
}
