package org.pacelab.lab.scenario;

import java.util.List;
import java.util.Map;

/**
 * One entry of {@code implementations}: a server peer, a client peer, the modes it runs in (empty: the scenario's),
 * and options for both roles ({@code options}) or one ({@code server-options}, {@code client-options}).
 */
public record Implementation(Located<String> name, Located<String> server, Located<String> client, List<Located<Mode>> modes,
                             Map<String, Located<String>> options, Map<String, Located<String>> serverOptions,
                             Map<String, Located<String>> clientOptions, Location at) {
    public static final List<String> KEYS = List.of("name", "server", "client", "mode", "options", "server-options",
            "client-options");
}
