package org.pacelab.sim.calibrate;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Locale;

import org.pacelab.io.runtime.TimerSlack;
import org.pacelab.sim.host.EmpiricalDistribution;
import org.pacelab.sim.host.HostTiming;

/**
 * {@code pacelab sim calibrate}: measures this host's timing ({@link HostTiming}) with the io runtime's own wait
 * strategies and sockets, FFM batch system calls and the QUIC stack itself. Wait lateness is kept as 101 quantiles
 * (0 %, 1 %, ..., 100 %); system-call and CPU costs as medians. What it cannot measure (a call the kernel
 * refuses) is taken from the bundled defaults and said so in {@code source}.
 */
public final class HostCalibration {
    /** How much to measure. */
    public record Effort(int waitSamples, int socketSamples, int syscallRounds, long warmupBytes, long transferBytes) {
        public static Effort standard() {
            return new Effort(3000, 400, 4000, 20L << 20, 20L << 20);
        }

        public static Effort quick() {
            return new Effort(300, 60, 400, 4L << 20, 2L << 20);
        }
    }

    private static final int QUANTILES = 101;

    private HostCalibration() {}

    public static HostTiming measure(Effort effort, PrintWriter progress) throws IOException {
        long seed = 0x5ca1ab1eL;
        progress.println("timer slack of this thread: " + TimerSlack.get() + " ns");
        progress.println("measuring park (" + effort.waitSamples() + " waits of 20 us to 1.5 ms) ...");
        progress.flush();
        EmpiricalDistribution park = dist("park_lateness_ns", WaitProbe.strategyLateness("park", effort.waitSamples(), seed));
        progress.println("  " + park);
        progress.println("measuring park-tight ...");
        progress.flush();
        EmpiricalDistribution tight = dist("park_tight_lateness_ns", WaitProbe.strategyLateness("park-tight", effort.waitSamples(), seed + 1));
        progress.println("  " + tight);
        progress.println("measuring spin ...");
        progress.flush();
        EmpiricalDistribution spin = dist("spin_lateness_ns", WaitProbe.strategyLateness("spin", effort.waitSamples(), seed + 2));
        progress.println("  " + spin);
        progress.println("measuring the socket readiness wait (timeouts, then wake-ups by a datagram) ...");
        progress.flush();
        EmpiricalDistribution socketTimeout = dist("socket_timeout_lateness_ns",
                WaitProbe.socketTimeoutLateness(effort.socketSamples(), seed + 3));
        EmpiricalDistribution socketWake = dist("socket_wake_latency_ns", WaitProbe.socketWakeLatency(effort.socketSamples(), seed + 4));
        progress.println("  timeout " + socketTimeout);
        progress.println("  wake    " + socketWake);
        progress.println("measuring system calls (DatagramChannel, sendmmsg, GSO, recvmmsg) ...");
        progress.flush();
        SyscallProbe.Costs sys = SyscallProbe.measure(effort.syscallRounds());
        progress.println("  " + sys);
        progress.println("measuring the QUIC stack's CPU time per datagram ...");
        progress.flush();
        StackCostProbe.Costs stack = StackCostProbe.measure(effort.warmupBytes(), effort.transferBytes());
        progress.println("  " + stack);
        boolean refused = sys.sendmmsgCall() < 0 || sys.gsoCall() < 0 || sys.recvmmsgCall() < 0;
        HostTiming fallback = refused ? HostTiming.defaults() : null;
        StringBuilder source = new StringBuilder("pacelab sim calibrate on ").append(host()).append(", ")
                .append(LocalDate.now()).append(", JDK ").append(Runtime.version()).append(loadAverage());
        if (!sys.notes().isEmpty()) {
            source.append("; not measurable here, bundled defaults used: ").append(sys.notes());
        }
        return new HostTiming(source.toString(), park, tight, spin, socketTimeout, socketWake, tight,
                sys.sendmsg(),
                sys.sendmmsgCall() < 0 ? fallback.sendmmsgCallNs() : sys.sendmmsgCall(),
                sys.sendmmsgPerPacket() < 0 ? fallback.sendmmsgPerPacketNs() : sys.sendmmsgPerPacket(),
                sys.gsoCall() < 0 ? fallback.gsoCallNs() : sys.gsoCall(),
                sys.gsoPerSegment() < 0 ? fallback.gsoPerSegmentNs() : sys.gsoPerSegment(),
                sys.recv(), sys.recvEmpty(),
                sys.recvmmsgCall() < 0 ? fallback.recvmmsgCallNs() : sys.recvmmsgCall(),
                sys.recvmmsgPerPacket() < 0 ? fallback.recvmmsgPerPacketNs() : sys.recvmmsgPerPacket(),
                stack.buildSmall(), stack.buildFull(), stack.processSmall(), stack.processFull(), sys.selectNow());
    }

    private static EmpiricalDistribution dist(String name, long[] samples) {
        return EmpiricalDistribution.fromSamples(name, samples, QUANTILES);
    }

    /** The 1-minute load average while calibrating (a shared host's wake-ups get later under load). */
    private static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return ", load average " + f[0];
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    private static String host() {
        String cpu = "unknown CPU";
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    cpu = line.substring(line.indexOf(':') + 1).trim();
                    break;
                }
            }
        } catch (IOException e) {
            // not Linux: the CPU stays unnamed
        }
        String name;
        try {
            name = InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            name = "this host";
        }
        return String.format(Locale.ROOT, "%s (%s, %d CPUs, %s %s)", name, cpu, Runtime.getRuntime().availableProcessors(),
                System.getProperty("os.name"), System.getProperty("os.version"));
    }
}
