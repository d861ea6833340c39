package org.pacelab.lab.plan;

/**
 * What a plan does about the real-time host set-up ({@code host-setup:}), in words for the table's header, the
 * report and {@code environment.json}.
 *
 * @param realtime whether the emulator and pacelab's senders run SCHED_FIFO in emulated runs
 * @param summary  one sentence: what is applied, or what was left out, why, and what it costs
 */
public record AppliedHostSetup(boolean realtime, String summary) {
    static final String APPLIED = "host set-up: real-time scheduling (root): the emulator runs SCHED_FIFO and pacelab's "
            + "senders SCHED_FIFO above it (--realtime --realtime-priority 30); receivers at normal priority";
    static final String COST = "their wake-ups then wait behind the machine's other processes, which adds delay errors, "
            + "stalls and bursts to emulated runs (the emulator's lateness is in every run's summary)";

    static AppliedHostSetup notRoot() {
        return new AppliedHostSetup(false, "host set-up left out: not root, so the emulator and pacelab's senders run at normal "
                + "priority; " + COST);
    }

    static AppliedHostSetup off() {
        return new AppliedHostSetup(false, "host set-up off (host-setup: off): the emulator and pacelab's senders run at "
                + "normal priority; " + COST);
    }

    static AppliedHostSetup simulated() {
        return new AppliedHostSetup(false, "host set-up: none needed (every run is simulated; hosts are modelled)");
    }

    static AppliedHostSetup direct() {
        return new AppliedHostSetup(false, "host set-up: none applied (no emulated run: direct runs have no emulator, and their "
                + "goodput does not depend on pacing precision)");
    }

    static AppliedHostSetup applied() {
        return new AppliedHostSetup(true, APPLIED);
    }
}
