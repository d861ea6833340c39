package org.pacelab.lab.peer;

import java.util.List;
import java.util.Map;

/**
 * A process a peer wants started: its command line, extra environment, what "ready" means (servers), commands to
 * run before it in the same place (e.g. a sysctl inside the server's namespace), and commands to run before it on
 * the host itself (the root network namespace).
 */
public record Launch(List<String> command, Map<String, String> environment, Readiness readiness, List<List<String>> before,
                     List<List<String>> hostBefore) {
    public Launch {
        command = List.copyOf(command);
        environment = Map.copyOf(environment);
        before = before.stream().map(List::copyOf).toList();
        hostBefore = hostBefore.stream().map(List::copyOf).toList();
    }

    public static Launch of(List<String> command, Map<String, String> environment, Readiness readiness) {
        return new Launch(command, environment, readiness, List.of(), List.of());
    }
}
