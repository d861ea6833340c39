package org.pacelab.io.send;

import java.io.IOException;
import java.io.InputStream;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

import org.pacelab.net.netns.NetnsException;
import org.pacelab.net.netns.Shell;
import org.pacelab.net.sys.Libc;
import org.pacelab.net.sys.OutgoingMessages;
import org.pacelab.net.sys.SysException;
import org.pacelab.net.sys.UdpSocket;

/**
 * Asks the running kernel whether it can honour the kernel-dependent send strategies, so the runtime stops with
 * one sentence instead of sending traffic that is silently not what was asked for.
 *
 * <ul>
 *   <li>UDP GSO: a two-segment {@code UDP_SEGMENT} message to our own loopback socket must be accepted.</li>
 *   <li>Paced GSO (the QUIC Steps study's patch): the same message with a {@code UDP_SEGMENT_PACING_RATE}
 *       control message (SOL_UDP, type 105, u64). An unpatched kernel's {@code udp_cmsg_send} rejects every SOL_UDP
 *       type but UDP_SEGMENT (and UDP_GRO on newer kernels) with EINVAL; the patch accepts 105 on IPv4 sockets
 *       only. Sending the message first without and then with the rate tells the two apart (verified on this
 *       project's unpatched 6.18 kernel: EINVAL with, accepted without).</li>
 *   <li>SO_TXTIME: the socket accepts the option and SCM_TXTIME on any kernel since 4.19 but only the fq and etf
 *       qdiscs act on the times. The egress device toward the destination ({@code ip route get}) must carry one
 *       ({@code tc qdisc show}, see {@link EgressQdisc}).</li>
 * </ul>
 */
public final class KernelSupport {
    private KernelSupport() {}

    /** Whether the kernel accepts UDP GSO messages; null or why not. */
    public static String whyNoGso() {
        try (UdpSocket s = UdpSocket.bind(new InetSocketAddress("127.0.0.1", 0), "the GSO probe");
             OutgoingMessages m = new OutgoingMessages(1)) {
            int e = trySend(s, m, s.localAddress(), false);
            return e == 0 ? null : "this kernel refuses UDP GSO messages (UDP_SEGMENT: " + Libc.strerror(e) + ")";
        } catch (SysException e) {
            return "cannot open a probe socket: " + e.getMessage();
        }
    }

    /**
     * Whether the kernel carries the QUIC Steps study's paced-GSO patch; null when it does, or one sentence saying
     * it does not. Needs UDP GSO.
     */
    public static String whyNoPacedGsoPatch() {
        try (UdpSocket s = UdpSocket.bind(new InetSocketAddress("127.0.0.1", 0), "the paced-GSO probe");
             OutgoingMessages m = new OutgoingMessages(1)) {
            InetSocketAddress self = s.localAddress();
            int plain = trySend(s, m, self, false);
            if (plain != 0) {
                return "this kernel refuses UDP GSO messages (UDP_SEGMENT: " + Libc.strerror(plain) + "), which paced GSO needs";
            }
            int paced = trySend(s, m, self, true);
            if (paced == 0) {
                return null;
            }
            return paced == Libc.EINVAL
                    ? "this kernel (" + System.getProperty("os.version") + ") does not carry the QUIC Steps paced-GSO patch: it "
                      + "refuses the UDP_SEGMENT_PACING_RATE control message (SOL_UDP/105) with EINVAL"
                    : "this kernel refuses the UDP_SEGMENT_PACING_RATE control message: " + Libc.strerror(paced);
        } catch (SysException e) {
            return "cannot open a probe socket: " + e.getMessage();
        }
    }

    /** Sends a 2 × 100-byte GSO message to {@code to}, with the pacing-rate control message if asked; 0 or errno. */
    private static int trySend(UdpSocket s, OutgoingMessages m, InetSocketAddress to, boolean withRate) {
        m.clear();
        int i = m.open(to, s.family());
        m.append(i, ByteBuffer.allocate(200));
        m.segmentSize(i, 100);
        if (withRate) {
            m.pacingRate(i, 5_000_000L);
        }
        try {
            return s.send(m, 0) == 1 ? 0 : Libc.EAGAIN;
        } catch (SysException e) {
            return e.errno();
        }
    }

    /**
     * Why packets to {@code destination} would leave with their SO_TXTIME send times on {@code clock} ignored, or
     * null when the egress device's qdisc honours them.
     */
    public static String whyTxTimeIgnored(InetAddress destination, TxTimeClock clock) {
        String device;
        try {
            device = egressDevice(destination);
        } catch (IOException e) {
            return e.getMessage();
        }
        return whyTxTimeIgnoredOn(device, clock);
    }

    /** Like {@link #whyTxTimeIgnored} for a known device. */
    public static String whyTxTimeIgnoredOn(String device, TxTimeClock clock) {
        Shell.Result r;
        try {
            r = Shell.run("tc", "qdisc", "show", "dev", device);
        } catch (NetnsException e) {
            return "cannot tell which qdisc device " + device + " has (tc: " + e.getMessage() + ")";
        }
        if (!r.ok()) {
            return "cannot tell which qdisc device " + device + " has (tc: " + r.output().lines().findFirst().orElse("") + ")";
        }
        String why = EgressQdisc.parse(device, r.output()).whyTxTimeIgnored(clock);
        if (why == null) {
            return null;
        }
        String kernel = kernelLacksTimedQdiscs();
        return why + (kernel == null ? "" : "; " + kernel);
    }

    /** The device packets to {@code destination} leave through ({@code ip route get}). */
    public static String egressDevice(InetAddress destination) throws IOException {
        Shell.Result r;
        try {
            r = Shell.run("ip", "-o", "route", "get", destination.getHostAddress());
        } catch (NetnsException e) {
            throw new IOException("cannot find the route to " + destination.getHostAddress() + ": " + e.getMessage());
        }
        String dev = r.ok() ? deviceOf(r.output()) : null;
        if (dev == null) {
            throw new IOException("cannot find the route to " + destination.getHostAddress() + " (ip route get: "
                    + r.output().lines().findFirst().orElse("no output") + ")");
        }
        return dev;
    }

    /** The device owning local address {@code address} ({@code ip -o addr show}), or null. */
    public static String deviceOwning(InetAddress address) {
        try {
            Shell.Result r = Shell.run("ip", "-o", "addr", "show");
            if (!r.ok()) {
                return null;
            }
            String want = address.getHostAddress();
            for (String line : r.output().lines().toList()) {
                String[] t = line.trim().split("\\s+");
                for (int i = 2; i + 1 < t.length; i++) {
                    if ((t[i].equals("inet") || t[i].equals("inet6")) && t[i + 1].split("/")[0].equals(want)) {
                        return t[1].replaceAll("@.*$", "");
                    }
                }
            }
            return null;
        } catch (NetnsException e) {
            return null;
        }
    }

    /** The token after {@code dev} in one line of {@code ip -o route get}, or null. */
    static String deviceOf(String ipRouteGet) {
        String[] t = ipRouteGet.trim().split("\\s+");
        for (int i = 0; i + 1 < t.length; i++) {
            if (t[i].equals("dev")) {
                return t[i + 1];
            }
        }
        return null;
    }

    /** One clause when the kernel's configuration shows neither fq nor etf (from /proc/config.gz), else null. */
    static String kernelLacksTimedQdiscs() {
        String config = kernelConfig();
        if (config == null) {
            return null;
        }
        boolean fq = enabled(config, "CONFIG_NET_SCH_FQ");
        boolean etf = enabled(config, "CONFIG_NET_SCH_ETF");
        if (fq || etf) {
            return null;
        }
        return "and this kernel is built without fq and etf (CONFIG_NET_SCH_FQ and CONFIG_NET_SCH_ETF are not set; tc says "
                + "'Specified qdisc kind is unknown'), so send times cannot be honoured on this host at all";
    }

    static boolean enabled(String config, String option) {
        return config.lines().anyMatch(l -> l.equals(option + "=y") || l.equals(option + "=m"));
    }

    private static String kernelConfig() {
        Path p = Path.of("/proc/config.gz");
        if (!Files.isReadable(p)) {
            return null;
        }
        try (InputStream in = new GZIPInputStream(Files.newInputStream(p))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * Checks what this host must offer for {@code config} whatever the destination: UDP GSO, the paced-GSO patch,
     * and — when {@code local} is a specific address — send times honoured on the device owning it. Throws with one
     * sentence when something is missing.
     */
    public static void requireHost(SendConfig config, InetSocketAddress local) throws UnsupportedSendStrategyException {
        if (config.gso() && !config.gsoAuto() && !config.pacedGso()) {
            String why = whyNoGso();
            if (why != null) {
                throw new UnsupportedSendStrategyException(SendConfig.GSO + " " + config.gsoSegments() + ": " + why + ".");
            }
        }
        if (config.pacedGso()) {
            String why = whyNoPacedGsoPatch();
            if (why != null) {
                throw new UnsupportedSendStrategyException(pacedGsoRefusal(why));
            }
        }
        if (config.txtime() && !local.getAddress().isAnyLocalAddress()) {
            String dev = deviceOwning(local.getAddress());
            String why = dev == null ? null : whyTxTimeIgnoredOn(dev, config.txtimeClock());
            if (why != null) {
                throw new UnsupportedSendStrategyException(txtimeRefusal(config, null, why));
            }
        }
    }

    /**
     * Checks that packets to {@code destination} can be sent as {@code config} asks: send times honoured on the egress
     * device toward it, an IPv4 destination for paced GSO. Throws with one sentence when not.
     */
    public static void requireToward(SendConfig config, InetSocketAddress destination) throws UnsupportedSendStrategyException {
        if (config.pacedGso() && !(destination.getAddress() instanceof Inet4Address)) {
            throw new UnsupportedSendStrategyException(pacedGsoRefusal("the patch paces IPv4 only, and "
                    + destination.getAddress().getHostAddress() + " is IPv6"));
        }
        if (config.txtime()) {
            String why = whyTxTimeIgnored(destination.getAddress(), config.txtimeClock());
            if (why != null) {
                throw new UnsupportedSendStrategyException(txtimeRefusal(config, destination, why));
            }
        }
    }

    static String pacedGsoRefusal(String why) {
        return SendConfig.PACED_GSO + ": " + why + "; without it the kernel would send each GSO buffer as one unpaced burst, "
                + "so pacelab stops.";
    }

    static String txtimeRefusal(SendConfig config, InetSocketAddress destination, String why) {
        return SendConfig.TXTIME + ": send times " + (destination == null ? "" : "toward "
                + UdpSocket.format(destination) + " ") + "would be ignored: " + why
                + "; the kernel accepts SO_TXTIME anyway, so the packets would leave unpaced — pacelab stops instead"
                + " (add an fq or etf root qdisc to the egress device, or drop " + SendConfig.TXTIME
                + (config.pacedGso() ? " and " + SendConfig.PACED_GSO : "") + ").";
    }
}
