package org.pacelab.sim.host;

import java.util.Locale;

import org.pacelab.io.runtime.WaitStrategies;

/**
 * Everything the simulator models about one endpoint's host.
 *
 * @param send        the send strategy's wait: park, park-tight, hybrid, spin (as {@code --send})
 * @param sendPath    how datagrams go to the kernel
 * @param qdisc       the queueing discipline in front of the NIC
 * @param timing      measured latencies and costs
 * @param udpBuffer   the socket's receive buffer, bytes of datagrams it holds before dropping
 */
public record HostConfig(String send, SendPathConfig sendPath, QdiscConfig qdisc, HostTiming timing, long udpBuffer) {
    public HostConfig {
        String s = send == null ? "" : send.trim().toLowerCase(Locale.ROOT);
        if (!WaitStrategies.NAMES.contains(s)) {
            throw new IllegalArgumentException("--send: '" + send + "' is not a send strategy; valid: "
                    + String.join(", ", WaitStrategies.NAMES));
        }
        send = s;
        boolean timed = !(qdisc instanceof QdiscConfig.Pfifo);
        if (sendPath.txtime() && !timed) {
            throw new IllegalArgumentException("--txtime needs --qdisc fq or etf: pfifo ignores send times");
        }
        if (qdisc instanceof QdiscConfig.Etf && !sendPath.txtime()) {
            throw new IllegalArgumentException("--qdisc etf needs --txtime: etf drops every packet without a send time");
        }
        if (udpBuffer < 2048) {
            throw new IllegalArgumentException("--udp-buffer: " + udpBuffer + " bytes cannot hold a datagram; use at least 2kb");
        }
    }

    /** The io runtime's behaviour on the project machine: park, sendmsg per datagram, pfifo, 32 MiB buffers. */
    public static HostConfig defaults() {
        return new HostConfig("park", SendPathConfig.plain(), new QdiscConfig.Pfifo(), HostTiming.defaults(), 32L << 20);
    }

    public HostConfig withSend(String s) {
        return new HostConfig(s, sendPath, qdisc, timing, udpBuffer);
    }

    public HostConfig withSendPath(SendPathConfig p) {
        return new HostConfig(send, p, qdisc, timing, udpBuffer);
    }

    public HostConfig withQdisc(QdiscConfig q) {
        return new HostConfig(send, sendPath, q, timing, udpBuffer);
    }

    public HostConfig withTiming(HostTiming t) {
        return new HostConfig(send, sendPath, qdisc, t, udpBuffer);
    }

    public HostConfig withUdpBuffer(long bytes) {
        return new HostConfig(send, sendPath, qdisc, timing, bytes);
    }
}
