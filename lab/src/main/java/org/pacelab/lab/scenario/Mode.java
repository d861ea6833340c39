package org.pacelab.lab.scenario;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** How a configuration runs: through the loopback UDP relay, between network namespaces, or in the simulator. */
public enum Mode {
    /** Separate processes on loopback, the emulator as a UDP relay between them (no privileges). */
    RELAY,
    /** Server and client in their own network namespaces joined through the emulator (root; any IP traffic). */
    NETNS,
    /** pacelab's stack in the deterministic virtual-time simulator, in this process. */
    SIM,
    /**
     * Server and client on the host's loopback talking to each other with no emulator in between (so no shaping, no
     * tap, no event log): unshaped goodput of the stacks themselves, as QUIC on the Highway measures it. A peer that
     * runs in relay or netns mode runs here too.
     */
    DIRECT;

    /** Whether a peer that runs in {@code modes} can run in this mode. */
    public boolean supportedBy(java.util.Set<Mode> modes) {
        return modes.contains(this) || (this == DIRECT && (modes.contains(RELAY) || modes.contains(NETNS)));
    }

    public String word() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static List<String> words() {
        return Arrays.stream(values()).map(Mode::word).toList();
    }

    /** The mode with this name, or null. */
    public static Mode parse(String text) {
        for (Mode m : values()) {
            if (m.word().equalsIgnoreCase(text.strip())) {
                return m;
            }
        }
        return null;
    }
}
