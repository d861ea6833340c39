package org.pacelab.lab.testing;

import java.util.Set;

import org.pacelab.lab.host.Host;
import org.pacelab.lab.peer.PacelabLauncher;
import org.pacelab.lab.peer.PeerRegistry;
import org.pacelab.lab.plan.CampaignPlan;
import org.pacelab.lab.plan.CampaignPlanner;
import org.pacelab.lab.plan.PlanningContext;
import org.pacelab.lab.scenario.ScenarioException;
import org.pacelab.lab.scenario.ScenarioReader;

/** Plans scenario text against a fake host. */
public final class Plans {
    public static final PacelabLauncher LAUNCHER = new PacelabLauncher(java.util.List.of("pacelab"),
            Set.of("server", "client", "emulate", "netns", "netns up"));

    private Plans() {}

    public static CampaignPlan plan(String yaml, Host host) throws ScenarioException {
        return plan(yaml, host, null);
    }

    public static CampaignPlan plan(String yaml, Host host, String simMissing) throws ScenarioException {
        var s = ScenarioReader.parse("test.yaml", yaml);
        return CampaignPlanner.plan(s, new PlanningContext(PeerRegistry.standard(), host, LAUNCHER, simMissing,
                s.skipUnavailable(), null));
    }

    /** The single problem sentence of a refused scenario. */
    public static String refusal(String yaml, Host host) {
        return refusal(yaml, host, null);
    }

    /** The problem sentences of a refused scenario, planned as if the simulator were missing for {@code simMissing}. */
    public static String refusal(String yaml, Host host, String simMissing) {
        try {
            plan(yaml, host, simMissing);
        } catch (ScenarioException e) {
            return e.getMessage();
        }
        throw new AssertionError("the scenario was accepted:\n" + yaml);
    }
}
