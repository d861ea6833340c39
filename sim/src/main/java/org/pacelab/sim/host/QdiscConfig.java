package org.pacelab.sim.host;

import java.util.List;

/** The queueing discipline between a host's socket and its NIC. */
public sealed interface QdiscConfig {
    List<String> NAMES = List.of("pfifo", "fq", "etf");

    String name();

    /** First-in first-out; send times are ignored (Linux pfifo / pfifo_fast / the default qdisc for UDP). */
    record Pfifo() implements QdiscConfig {
        @Override
        public String name() { return "pfifo"; }
    }

    /**
     * Linux sch_fq with earliest-departure-time (EDT) semantics: a packet leaves no earlier than its send time;
     * flows are served round robin with a byte quantum; packets beyond the horizon are dropped.
     *
     * @param quantumBytes        credit a flow gets per round (Linux default 2 × MTU = 3028)
     * @param initialQuantumBytes credit of a new flow (Linux default 10 × MTU = 15140)
     * @param horizonNanos        send times further ahead than this are dropped (Linux default 10 s)
     * @param flowLimit           packets one flow may hold (Linux default 100)
     * @param timerSlackNanos     slack of the qdisc's watchdog timer (Linux default 10 µs)
     */
    record Fq(int quantumBytes, int initialQuantumBytes, long horizonNanos, int flowLimit, long timerSlackNanos)
            implements QdiscConfig {
        public Fq {
            if (quantumBytes < 1) throw new IllegalArgumentException("--fq-quantum: must be at least 1 byte");
            if (initialQuantumBytes < 0) throw new IllegalArgumentException("--fq-initial-quantum: must be >= 0 bytes");
            if (horizonNanos < 1) throw new IllegalArgumentException("--fq-horizon: must be positive");
            if (flowLimit < 1) throw new IllegalArgumentException("--fq-flow-limit: must be at least 1 packet");
            if (timerSlackNanos < 0) throw new IllegalArgumentException("--fq-timer-slack: must be >= 0");
        }

        public static Fq linuxDefaults() {
            return new Fq(3028, 15140, 10_000_000_000L, 100, 10_000L);
        }

        @Override
        public String name() { return "fq"; }
    }

    /**
     * Linux sch_etf without offload: packets are held sorted by send time and released {@code delta} before it by
     * a watchdog timer; one whose send time has passed when the watchdog fires is dropped.
     *
     * @param deltaNanos how long before its send time a packet is released (tc-etf {@code delta})
     */
    record Etf(long deltaNanos) implements QdiscConfig {
        public Etf {
            if (deltaNanos < 0) throw new IllegalArgumentException("--etf-delta: must be >= 0");
        }

        @Override
        public String name() { return "etf"; }
    }
}
