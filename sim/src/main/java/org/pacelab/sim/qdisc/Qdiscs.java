package org.pacelab.sim.qdisc;

import java.util.random.RandomGenerator;

import org.pacelab.sim.host.HostTiming;
import org.pacelab.sim.host.QdiscConfig;

/** Builds the qdisc a {@link QdiscConfig} names. */
public final class Qdiscs {
    private Qdiscs() {}

    public static Qdisc create(QdiscConfig config, Nic nic, HostTiming timing, RandomGenerator random) {
        return switch (config) {
            case QdiscConfig.Pfifo p -> new PfifoQdisc(nic);
            case QdiscConfig.Fq fq -> new FqQdisc(nic, fq, timing.kernelTimerLateness(), random);
            case QdiscConfig.Etf etf -> new EtfQdisc(nic, etf.deltaNanos(), timing.kernelTimerLateness(), random);
        };
    }
}
