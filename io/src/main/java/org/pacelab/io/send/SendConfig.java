package org.pacelab.io.send;

import static org.pacelab.quic.util.OptionValues.get;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.pacelab.io.runtime.HybridWait;
import org.pacelab.io.runtime.WaitStrategies;
import org.pacelab.io.runtime.WaitStrategy;
import org.pacelab.net.spec.SpecException;
import org.pacelab.net.spec.Units;
import org.pacelab.net.sys.OutgoingMessages;

/**
 * How an endpoint hands its datagrams to the kernel — the second half of pacing, "how the host honours it" —
 * with the option names used on {@code pacelab server}/{@code client} and in scenario files.
 *
 * @param waitName        {@code --send}: how the loop waits for the pacer's release times: park, park-tight,
 *                        hybrid, spin (default park)
 * @param hybridSpin      {@code --hybrid-spin}: how long before a release time {@code hybrid} stops parking and
 *                        spins, ns (default 60 µs)
 * @param socket          {@code --socket}: native (system calls through FFM, the default) or jdk (DatagramChannel,
 *                        one system call per datagram, none of the options below)
 * @param sendmmsg        {@code --sendmmsg}: messages per sendmmsg call at most (1 = one sendmsg per message)
 * @param gsoSegments     {@code --gso}: datagrams per UDP GSO buffer at most (1 = no GSO), or {@link #GSO_AUTO}: as
 *                        many as one UDP datagram holds (at most 64), the default on the native socket — what the
 *                        pacer releases at once leaves in one system call, as ngtcp2, quiche and Linux's TCP do
 * @param gsoShrinkOnLoss {@code --gso-shrink-on-loss}: on, off — cut the GSO buffer by a quarter whenever the
 *                        connection's loss rate rose by more than 0.1 % (as quiche's server app does)
 * @param txtime          {@code --txtime}: on, off — every message carries its intended send time (SO_TXTIME /
 *                        SCM_TXTIME); the kernel honours it only with an fq or etf qdisc on the egress device
 * @param txtimeClock     {@code --txtime-clock}: monotonic (what fq uses) or tai (what etf is usually set up with)
 * @param pacingLookahead {@code --pacing-lookahead}: how far ahead of its intended send time a packet may be
 *                        handed to the kernel (with txtime), ns; default {@link #DEFAULT_LOOKAHEAD}
 * @param pacedGso        {@code --paced-gso}: on, off — the kernel spaces each GSO buffer's segments at the
 *                        connection's pacing rate (the QUIC Steps study's kernel patch, control message SOL_UDP/105)
 * @param recvBatch       {@code --recv-batch}: datagrams per receive call at most (1 = recvmsg, more = recvmmsg;
 *                        default {@link #DEFAULT_RECV_BATCH} on the native socket)
 * @param gro             {@code --gro}: on, off — let the kernel coalesce received datagrams (UDP_GRO; default on with
 *                        the native socket)
 * @param realtime        {@code --realtime}: on, off — run the event loop thread SCHED_FIFO (root or CAP_SYS_NICE),
 *                        so other processes on a busy host do not delay its sends
 * @param realtimePriority {@code --realtime-priority}: its SCHED_FIFO priority, 1 to 99 (default 10, the emulator's);
 *                        a sender above the emulator above the receiver keeps one machine's three processes in order
 */
public record SendConfig(String waitName, long hybridSpin, Socket socket, int sendmmsg, int gsoSegments,
                         boolean gsoShrinkOnLoss, boolean txtime, TxTimeClock txtimeClock, long pacingLookahead,
                         boolean pacedGso, int recvBatch, boolean gro, boolean realtime,
                         int realtimePriority) {

    /** The two socket implementations. */
    public enum Socket {
        JDK, NATIVE;

        public String optionValue() { return name().toLowerCase(Locale.ROOT); }
    }

    public static final String SEND = "--send";
    public static final String HYBRID_SPIN = "--hybrid-spin";
    public static final String SOCKET = "--socket";
    public static final String SENDMMSG = "--sendmmsg";
    public static final String GSO = "--gso";
    public static final String GSO_SHRINK_ON_LOSS = "--gso-shrink-on-loss";
    public static final String TXTIME = "--txtime";
    public static final String TXTIME_CLOCK = "--txtime-clock";
    public static final String PACING_LOOKAHEAD = "--pacing-lookahead";
    public static final String PACED_GSO = "--paced-gso";
    public static final String RECV_BATCH = "--recv-batch";
    public static final String GRO = "--gro";
    public static final String REALTIME = "--realtime";
    public static final String REALTIME_PRIORITY = "--realtime-priority";

    /** Every option of this configuration, in documentation order. */
    public static final List<String> OPTION_NAMES = List.of(SEND, HYBRID_SPIN, SOCKET, SENDMMSG, GSO, GSO_SHRINK_ON_LOSS,
            TXTIME, TXTIME_CLOCK, PACING_LOOKAHEAD, PACED_GSO, RECV_BATCH, GRO, REALTIME, REALTIME_PRIORITY);

    /** {@code --gso auto}: as many segments as fit one UDP datagram, at most {@link #MAX_GSO_SEGMENTS}. */
    public static final int GSO_AUTO = 0;
    /** Datagrams per recvmmsg on the native socket when {@code --recv-batch} is not given. */
    public static final int DEFAULT_RECV_BATCH = 64;
    /** Linux's UDP_MAX_SEGMENTS (64 on the kernels the study used). */
    public static final int MAX_GSO_SEGMENTS = 64;
    /** Linux's UIO_MAXIOV: the most messages one sendmmsg or recvmmsg takes. */
    public static final int MAX_BATCH = 1024;
    /** Look-ahead with {@code --txtime} when none is given: a 16-segment buffer at 40 Mbit/s (as the simulator). */
    public static final long DEFAULT_LOOKAHEAD = 5_000_000L;
    /**
     * The runtime's default: park, the native socket, a GSO buffer per pacing burst ({@code --gso auto}), recvmmsg of
     * {@link #DEFAULT_RECV_BATCH} datagrams with GRO.
     */
    public static final SendConfig DEFAULT = new SendConfig("park", WaitStrategies.DEFAULT_SPIN_NANOS, Socket.NATIVE, 1,
            GSO_AUTO, false, false, TxTimeClock.MONOTONIC, 0, false, DEFAULT_RECV_BATCH, true, false, 10);
    /** What the runtime did by default before issue 14: park, DatagramChannel, one system call per datagram. */
    public static final SendConfig PER_DATAGRAM = new SendConfig("park", WaitStrategies.DEFAULT_SPIN_NANOS, Socket.JDK, 1, 1,
            false, false, TxTimeClock.MONOTONIC, 0, false, 1, false, false, 10);

    public SendConfig {
        String w = waitName == null ? "" : waitName.trim().toLowerCase(Locale.ROOT);
        if (!WaitStrategies.NAMES.contains(w)) {
            throw new IllegalArgumentException(SEND + ": '" + waitName + "' is not a send strategy; valid values are "
                    + String.join(", ", WaitStrategies.NAMES) + ".");
        }
        waitName = w;
        if (hybridSpin < 0 || hybridSpin > 10_000_000L) {
            throw new IllegalArgumentException(HYBRID_SPIN + ": " + hybridSpin + " ns is out of range; valid: 0 to 10ms.");
        }
        if (realtimePriority < 1 || realtimePriority > 99) {
            throw new IllegalArgumentException(REALTIME_PRIORITY + ": " + realtimePriority + " is out of range; valid: 1 to 99.");
        }
        if (socket == null || txtimeClock == null) {
            throw new IllegalArgumentException("send configuration needs a socket kind and a txtime clock.");
        }
        if (sendmmsg < 1 || sendmmsg > MAX_BATCH) {
            throw new IllegalArgumentException(SENDMMSG + ": " + sendmmsg + " is out of range; valid: 1 (sendmsg) to "
                    + MAX_BATCH + ".");
        }
        if (gsoSegments != GSO_AUTO && (gsoSegments < 1 || gsoSegments > MAX_GSO_SEGMENTS)) {
            throw new IllegalArgumentException(GSO + ": " + gsoSegments + " segments is out of range; valid: auto, 1 (off) to "
                    + MAX_GSO_SEGMENTS + " (Linux UDP_MAX_SEGMENTS).");
        }
        if (recvBatch < 1 || recvBatch > MAX_BATCH) {
            throw new IllegalArgumentException(RECV_BATCH + ": " + recvBatch + " is out of range; valid: 1 (recvmsg) to "
                    + MAX_BATCH + ".");
        }
        if (gsoShrinkOnLoss && gsoSegments == 1) {
            throw new IllegalArgumentException(GSO_SHRINK_ON_LOSS + " needs " + GSO + " 2 or more: it shrinks GSO buffers.");
        }
        if (pacedGso && gsoSegments == 1) {
            throw new IllegalArgumentException(PACED_GSO + " needs " + GSO + " 2 or more: it paces the segments of GSO buffers.");
        }
        if (pacedGso && !txtime) {
            throw new IllegalArgumentException(PACED_GSO + " needs " + TXTIME + ": the kernel spaces the segments from the "
                    + "buffer's send time.");
        }
        if (pacingLookahead < 0 || pacingLookahead > 1_000_000_000L) {
            throw new IllegalArgumentException(PACING_LOOKAHEAD + ": " + pacingLookahead + " ns is out of range; valid: 0 to 1s.");
        }
        if (pacingLookahead > 0 && !txtime) {
            throw new IllegalArgumentException(PACING_LOOKAHEAD + " needs " + TXTIME + ": only a qdisc holding packets until "
                    + "their send time can take them early.");
        }
        if (socket == Socket.JDK && needsNative(sendmmsg, gsoSegments, txtime, recvBatch, gro)) {
            throw new IllegalArgumentException(SOCKET + " jdk cannot do " + String.join(", ",
                    nativeOptionsUsed(sendmmsg, gsoSegments, txtime, recvBatch, gro)) + "; use " + SOCKET + " native.");
        }
    }

    /**
     * Reads a configuration from option name to value (with or without the leading {@code --}). Options not given
     * keep their defaults ({@code --pacing-lookahead} becomes {@link #DEFAULT_LOOKAHEAD} with {@code --txtime}; with
     * {@code --socket jdk}, {@code --gso}, {@code --recv-batch} and {@code --gro} default to off); other keys are
     * ignored. An invalid value
     * throws {@link IllegalArgumentException} with one sentence naming the option and the valid values.
     */
    public static SendConfig fromOptions(Map<String, String> options) {
        SendConfig d = DEFAULT;
        String v;
        String wait = (v = get(options, SEND)) == null ? d.waitName : v;
        long spin = (v = get(options, HYBRID_SPIN)) == null ? d.hybridSpin : duration(HYBRID_SPIN, v);
        Socket socket = (v = get(options, SOCKET)) == null ? d.socket : switch (v.trim().toLowerCase(Locale.ROOT)) {
            case "jdk" -> Socket.JDK;
            case "native" -> Socket.NATIVE;
            default -> throw new IllegalArgumentException(SOCKET + ": '" + v + "' is not a socket kind; valid values are "
                    + "jdk, native.");
        };
        boolean nativeSocket = socket == Socket.NATIVE;
        int mmsg = (v = get(options, SENDMMSG)) == null ? d.sendmmsg : count(SENDMMSG, v, "1 (sendmsg) to " + MAX_BATCH);
        int gso = (v = get(options, GSO)) == null ? (nativeSocket ? d.gsoSegments : 1)
                : v.trim().equalsIgnoreCase("auto") ? GSO_AUTO : gsoCount(v);
        boolean shrink = (v = get(options, GSO_SHRINK_ON_LOSS)) != null && onOff(GSO_SHRINK_ON_LOSS, v);
        boolean txtime = (v = get(options, TXTIME)) != null && onOff(TXTIME, v);
        TxTimeClock clock = (v = get(options, TXTIME_CLOCK)) == null ? d.txtimeClock : TxTimeClock.parse(v);
        long lookahead = (v = get(options, PACING_LOOKAHEAD)) == null ? (txtime ? DEFAULT_LOOKAHEAD : 0)
                : duration(PACING_LOOKAHEAD, v);
        boolean paced = (v = get(options, PACED_GSO)) != null && onOff(PACED_GSO, v);
        int recv = (v = get(options, RECV_BATCH)) == null ? (nativeSocket ? d.recvBatch : 1)
                : count(RECV_BATCH, v, "1 (recvmsg) to " + MAX_BATCH);
        boolean gro = (v = get(options, GRO)) == null ? nativeSocket && d.gro : onOff(GRO, v);
        boolean realtime = (v = get(options, REALTIME)) != null && onOff(REALTIME, v);
        int priority = (v = get(options, REALTIME_PRIORITY)) == null ? d.realtimePriority
                : count(REALTIME_PRIORITY, v, "1 to 99");
        if (get(options, REALTIME_PRIORITY) != null && !realtime) {
            throw new IllegalArgumentException(REALTIME_PRIORITY + " needs " + REALTIME + ": it is the event loop's SCHED_FIFO priority.");
        }
        if (get(options, TXTIME_CLOCK) != null && !txtime) {
            throw new IllegalArgumentException(TXTIME_CLOCK + " needs " + TXTIME + ": it names the clock of the send times.");
        }
        return new SendConfig(wait, spin, socket, mmsg, gso, shrink, txtime, clock, lookahead, paced, recv, gro, realtime, priority);
    }

    /** The options that reproduce this configuration with {@link #fromOptions}. */
    public Map<String, String> toOptions() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(SEND, waitName);
        m.put(HYBRID_SPIN, Units.formatDuration(hybridSpin));
        m.put(SOCKET, socket.optionValue());
        m.put(SENDMMSG, Integer.toString(sendmmsg));
        m.put(GSO, gsoSegments == GSO_AUTO ? "auto" : Integer.toString(gsoSegments));
        m.put(GSO_SHRINK_ON_LOSS, gsoShrinkOnLoss ? "on" : "off");
        m.put(TXTIME, txtime ? "on" : "off");
        if (txtime) {
            m.put(TXTIME_CLOCK, txtimeClock.optionValue());
            m.put(PACING_LOOKAHEAD, Units.formatDuration(pacingLookahead));
        }
        m.put(PACED_GSO, pacedGso ? "on" : "off");
        m.put(RECV_BATCH, Integer.toString(recvBatch));
        m.put(GRO, gro ? "on" : "off");
        m.put(REALTIME, realtime ? "on" : "off");
        if (realtime) {
            m.put(REALTIME_PRIORITY, Integer.toString(realtimePriority));
        }
        return m;
    }

    /** This configuration with at most {@code segments} per GSO buffer (1: none). */
    public SendConfig withGso(int segments) {
        return new SendConfig(waitName, hybridSpin, socket, sendmmsg, segments, gsoShrinkOnLoss && segments != 1, txtime,
                txtimeClock, pacingLookahead, pacedGso, recvBatch, gro, realtime, realtimePriority);
    }

    /** Whether {@code --gso} is auto: as many segments as one UDP datagram holds. */
    public boolean gsoAuto() {
        return gsoSegments == GSO_AUTO;
    }

    /** Whether GSO is on ({@code --gso} auto or 2 or more). */
    public boolean gso() {
        return gsoSegments != 1;
    }

    /**
     * The most segments a GSO buffer of {@code segmentSize}-byte datagrams may hold: {@code --gso N}, or with auto as
     * many as fit one UDP datagram ({@link OutgoingMessages#MAX_MESSAGE_BYTES}), at most {@link #MAX_GSO_SEGMENTS}.
     */
    public int gsoLimit(int segmentSize) {
        if (gsoSegments != GSO_AUTO) {
            return gsoSegments;
        }
        return Math.max(1, Math.min(MAX_GSO_SEGMENTS, OutgoingMessages.MAX_MESSAGE_BYTES / Math.max(1, segmentSize)));
    }

    /** This configuration with another wait strategy ({@code --send}). */
    public SendConfig withWait(String name) {
        return new SendConfig(name, hybridSpin, socket, sendmmsg, gsoSegments, gsoShrinkOnLoss, txtime, txtimeClock,
                pacingLookahead, pacedGso, recvBatch, gro, realtime, realtimePriority);
    }

    /** This configuration at normal scheduling priority (no {@code --realtime}). */
    public SendConfig withoutRealtime() {
        return new SendConfig(waitName, hybridSpin, socket, sendmmsg, gsoSegments, gsoShrinkOnLoss, txtime, txtimeClock,
                pacingLookahead, pacedGso, recvBatch, gro, false, DEFAULT.realtimePriority);
    }

    /** A new instance of the wait strategy (one per event loop: some keep per-thread state). */
    public WaitStrategy waitStrategy() {
        return waitName.equals("hybrid") ? new HybridWait(hybridSpin) : WaitStrategies.parse(waitName);
    }

    /**
     * Checks the settings against the largest datagram the connection sends; one sentence when a GSO buffer would
     * not fit in one UDP datagram.
     */
    public void validateFor(int maxDatagramSize) {
        long bytes = (long) gsoSegments * maxDatagramSize;
        if (gsoSegments > 1 && bytes > OutgoingMessages.MAX_MESSAGE_BYTES) {
            throw new IllegalArgumentException(GSO + " " + gsoSegments + ": " + gsoSegments + " segments of " + maxDatagramSize
                    + " bytes exceed the " + OutgoingMessages.MAX_MESSAGE_BYTES + "-byte limit of one UDP GSO buffer; valid: "
                    + "at most " + OutgoingMessages.MAX_MESSAGE_BYTES / maxDatagramSize + " with datagrams of " + maxDatagramSize
                    + " bytes.");
        }
    }

    /** A short description for logs, e.g. {@code hybrid, native, gso 16, sendmmsg 8, txtime monotonic +5ms}. */
    public String describe() {
        StringBuilder b = new StringBuilder(waitName).append(", ").append(socket.optionValue());
        if (sendmmsg > 1) b.append(", sendmmsg ").append(sendmmsg);
        if (gso()) b.append(", gso ").append(gsoAuto() ? "auto" : Integer.toString(gsoSegments)).append(gsoShrinkOnLoss ? " (shrink on loss)" : "");
        if (txtime) b.append(", txtime ").append(txtimeClock.optionValue()).append(" +").append(Units.formatDuration(pacingLookahead));
        if (pacedGso) b.append(", paced gso");
        if (recvBatch > 1) b.append(", recv-batch ").append(recvBatch);
        if (gro) b.append(", gro");
        if (realtime) b.append(", realtime ").append(realtimePriority);
        return b.toString();
    }

    private static boolean needsNative(int mmsg, int gso, boolean txtime, int recv, boolean gro) {
        return !nativeOptionsUsed(mmsg, gso, txtime, recv, gro).isEmpty();
    }

    private static List<String> nativeOptionsUsed(int mmsg, int gso, boolean txtime, int recv, boolean gro) {
        List<String> used = new java.util.ArrayList<>();
        if (mmsg > 1) used.add(SENDMMSG);
        if (gso != 1) used.add(GSO);
        if (txtime) used.add(TXTIME);
        if (recv > 1) used.add(RECV_BATCH);
        if (gro) used.add(GRO);
        return used;
    }

    /** A number of GSO segments, 1 to {@link #MAX_GSO_SEGMENTS} (0 is not a way to write auto). */
    private static int gsoCount(String value) {
        int n = count(GSO, value, "auto, 1 (off) to " + MAX_GSO_SEGMENTS);
        if (n < 1 || n > MAX_GSO_SEGMENTS) {
            throw new IllegalArgumentException(GSO + ": " + n + " segments is out of range; valid: auto, 1 (off) to "
                    + MAX_GSO_SEGMENTS + " (Linux UDP_MAX_SEGMENTS).");
        }
        return n;
    }

    private static long duration(String option, String value) {
        try {
            return Units.parseDuration(option, value.trim());
        } catch (SpecException e) {
            throw new IllegalArgumentException(option + ": '" + value + "' is not a duration; valid: " + Units.TIME_CHOICES + ".");
        }
    }

    private static int count(String option, String value, String range) {
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + ": '" + value + "' is not a whole number; valid: " + range + ".");
        }
    }

    static boolean onOff(String option, String value) {
        return switch (value == null ? "" : value.trim().toLowerCase(Locale.ROOT)) {
            case "on", "true" -> true;
            case "off", "false" -> false;
            default -> throw new IllegalArgumentException(option + ": '" + value + "' is not a switch value; valid values "
                    + "are on, off.");
        };
    }
}
