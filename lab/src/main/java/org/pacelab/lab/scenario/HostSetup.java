package org.pacelab.lab.scenario;

import java.util.List;
import java.util.Locale;

/**
 * The documented host set-up for real-time measurements ({@code host-setup:} in a scenario): the emulator's thread
 * and pacelab's sending event loop run SCHED_FIFO (the sender above the emulator), which holds their timing against
 * the other processes of a shared machine. It needs root. {@code auto} (the default) applies it when pacelab runs as
 * root and says what was left out otherwise; {@code on} refuses to plan without root; {@code off} never applies it.
 * Simulated runs do not need it (their hosts are modelled).
 */
public enum HostSetup {
    AUTO, ON, OFF;

    /** The sender's SCHED_FIFO priority: above the emulator's (10), as scripts/pacing-host.sh sets it. */
    public static final String SENDER_PRIORITY = "30";

    public String word() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static List<String> words() {
        return List.of("auto", "on", "off");
    }

    /** The setting with this name, or null. */
    public static HostSetup parse(String text) {
        for (HostSetup h : values()) {
            if (h.word().equalsIgnoreCase(text.strip())) {
                return h;
            }
        }
        return null;
    }
}
