package org.pacelab.lab.run;

import java.nio.file.Path;

import org.pacelab.lab.host.Host;
import org.pacelab.lab.peer.PacelabLauncher;
import org.pacelab.lab.scenario.Collect;

/**
 * What the executors of relay and netns runs ({@link EmulatedRunExecutor}, {@link DcRunExecutor}) work with: the
 * supervisor their processes run under, the host that finds the peers' programs, the launcher of pacelab's own
 * processes, the document root the servers serve, the PKI of the servers' certificates and what a run collects.
 */
record EmulatedRunTools(ProcessSupervisor supervisor, Host host, PacelabLauncher pacelab, Path documentRoot, Pki pki,
                        Collect collect) {
}
