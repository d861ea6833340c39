package org.pacelab.lab.plan;

import java.nio.file.Path;

import org.pacelab.lab.host.Host;
import org.pacelab.lab.peer.PacelabLauncher;
import org.pacelab.lab.peer.PeerRegistry;

/**
 * What planning checks a scenario against: the peers, this host, the pacelab build (its subcommands), whether the
 * simulator is in this build (null reason when it is), and whether configurations that cannot run here are
 * skipped with their reason instead of refusing the scenario.
 *
 * @param baseDir directory that relative paths in the scenario (traces) are resolved against
 */
public record PlanningContext(PeerRegistry peers, Host host, PacelabLauncher pacelab, String simulatorMissingReason,
                              boolean skipUnavailable, Path baseDir) {}
