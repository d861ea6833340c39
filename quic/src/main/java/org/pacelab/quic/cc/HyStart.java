package org.pacelab.quic.cc;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * HyStart as Linux implements it for CUBIC ({@code net/ipv4/tcp_cubic.c}, Ha and Rhee, "Taming the elephants",
 * 2008/2011): two signals, either of which ends slow start at once with ssthresh = cwnd.
 *
 * <ul>
 *   <li><b>ACK train</b>: a round starts with its first ACK ({@code round_start}); while every ACK arrives within
 *       {@link #ACK_DELTA} of the previous one, the train continues, and once it has lasted longer than
 *       {@code delay_min + cushion} the pipe is full. Linux halves that threshold for a sender that does not
 *       pace ("pacing might have delayed packets up to RTT/2 during slow start"); the cushion (TSO/GRO aggregation)
 *       is min(1 ms, 4 × 64 KiB / pacing rate), the pacing rate being 2 × cwnd / srtt as Linux's in slow start.</li>
 *   <li><b>Delay</b>: the minimum RTT of the round's first {@link #MIN_SAMPLES} samples, and of every later one,
 *       above {@code delay_min + clamp(delay_min / 8, 4 ms, 16 ms)}.</li>
 * </ul>
 * {@code delay_min} is the smallest RTT sample of the connection; both checks run only while cwnd is at least
 * {@link #LOW_WINDOW} packets. Rounds: a round ends when a packet sent after it started is acknowledged (Linux:
 * {@code snd_una} passing the {@code snd_nxt} of the round's start). The RTT sample is the ACK's latest RTT, the
 * RTT of the newest packet it acknowledges (Linux's {@code ca_rtt_us}). Linux runs the check before the ACK grows
 * the window; here it runs after, so ssthresh includes this ACK's growth.
 *
 * <p>What the ACK train measures with a paced sender: the span of one round's ACKs is the time the previous
 * round's packets took to reach the receiver, i.e. the longer of the pacer's spreading of them and their
 * serialization at the bottleneck. A sender pacing at 2 × cwnd / srtt spreads a round over about half an RTT, so
 * the train exceeds {@code delay_min} only once the round's data takes longer than a minimum RTT to cross the
 * bottleneck — when the window already exceeds the path's BDP. That is why Linux uses the full {@code delay_min}
 * when it paces, and why the halved threshold would end slow start early for a paced sender.
 */
public final class HyStart extends RunningRule {
    /** Linux {@code hystart_low_window}: no detection below 16 packets of window. */
    public static final int LOW_WINDOW = 16;
    /** Linux {@code hystart_ack_delta_us}: ACKs further apart than this break the train. */
    public static final long ACK_DELTA = 2_000_000L;
    /** Linux {@code HYSTART_MIN_SAMPLES}. */
    public static final int MIN_SAMPLES = 8;
    /** Linux {@code HYSTART_DELAY_MIN} and {@code HYSTART_DELAY_MAX}. */
    public static final long DELAY_THRESH_MIN = 4_000_000L;
    public static final long DELAY_THRESH_MAX = 16_000_000L;
    /** The cushion's cap and its GSO size (Linux {@code hystart_ack_delay}: at most 1 ms, 4 × gso_max_size / rate). */
    static final long CUSHION_MAX = 1_000_000L;
    static final long GSO_MAX_SIZE = 65_536;

    /** Linux {@code hystart_detect}: which signals may end slow start. */
    public enum Detect {
        TRAIN("train"), DELAY("delay"), BOTH("both");

        private final String optionValue;

        Detect(String optionValue) {
            this.optionValue = optionValue;
        }

        public String optionValue() { return optionValue; }

        boolean train() { return this != DELAY; }

        boolean delay() { return this != TRAIN; }

        /** Parses a {@code --hystart-detect} value; the error sentence lists the valid values. */
        public static Detect parse(String value) {
            String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
            for (Detect d : values()) {
                if (d.optionValue.equals(v)) {
                    return d;
                }
            }
            throw new IllegalArgumentException(SlowStartConfig.HYSTART_DETECT + ": '" + value + "' is not a HyStart signal; "
                    + "valid values are " + Arrays.stream(values()).map(Detect::optionValue).collect(Collectors.joining(", ")) + ".");
        }
    }

    /** What ended slow start. */
    public enum Found { NONE, ACK_TRAIN, DELAY }

    private final Detect detect;
    private final boolean paced;
    private Found found = Found.NONE;

    private long delayMin = Long.MAX_VALUE;
    private boolean roundRunning;
    private boolean roundEndSet;
    private PacketInfo roundEnd;
    private long roundStart;
    private long lastAck;
    private long currRtt;
    private int sampleCount;
    private int rounds;

    /**
     * @param detect which signals may end slow start
     * @param paced  whether the sender paces (Linux: {@code sk_pacing_status != SK_PACING_NONE})
     */
    public HyStart(Detect detect, boolean paced) {
        this.detect = detect;
        this.paced = paced;
    }

    public Found found() { return found; }

    public long delayMin() { return delayMin; }

    /** Rounds started while the window was at least {@link #LOW_WINDOW} packets. */
    public int rounds() { return rounds; }

    @Override
    public void onPacketSent(PacketInfo packet) {
        if (active() && roundRunning && !roundEndSet) {
            roundEnd = packet;
            roundEndSet = true;
        }
    }

    @Override
    public boolean onAck(AckEvent ack, long congestionWindow, int maxDatagramSize) {
        if (!active()) {
            return false;
        }
        long delay = ack.rtt().latestRtt();
        if (delay > 0) {
            delayMin = Math.min(delayMin, delay);
        }
        if (congestionWindow < (long) LOW_WINDOW * maxDatagramSize || delay <= 0) {
            return false;
        }
        long now = ack.now();
        if (!roundRunning || roundEndSet && endsRound(ack.acked())) {
            startRound(now);
        }
        if (detect.train() && now - lastAck <= ACK_DELTA) {
            lastAck = now;
            long threshold = delayMin + cushion(ack.rtt().smoothedRtt(), congestionWindow);
            if (!paced) {
                threshold /= 2;
            }
            if (now - roundStart > threshold) {
                return exit(Found.ACK_TRAIN);
            }
        }
        if (detect.delay()) {
            currRtt = Math.min(currRtt, delay);
            if (sampleCount < MIN_SAMPLES) {
                sampleCount++;
            } else if (currRtt > delayMin + Math.clamp(delayMin / 8, DELAY_THRESH_MIN, DELAY_THRESH_MAX)) {
                return exit(Found.DELAY);
            }
        }
        return false;
    }

    private boolean exit(Found why) {
        found = why;
        stop();
        return true;
    }

    /** Linux {@code bictcp_hystart_reset}. */
    private void startRound(long now) {
        roundRunning = true;
        roundEndSet = false;
        roundStart = now;
        lastAck = now;
        currRtt = Long.MAX_VALUE;
        sampleCount = 0;
        rounds++;
    }

    private boolean endsRound(List<PacketInfo> acked) {
        for (PacketInfo p : acked) {
            if (p.space() == roundEnd.space() ? p.packetNumber() >= roundEnd.packetNumber()
                    : p.timeSent() >= roundEnd.timeSent()) {
                return true;
            }
        }
        return false;
    }

    /** min(1 ms, 4 × 64 KiB / pacing rate) with Linux's slow-start pacing rate 2 × cwnd / srtt. */
    static long cushion(long smoothedRtt, long congestionWindow) {
        if (smoothedRtt <= 0 || congestionWindow <= 0) {
            return 0;
        }
        double rate = 2.0 * congestionWindow * 1e9 / smoothedRtt;
        return Math.min(CUSHION_MAX, (long) (4 * GSO_MAX_SIZE * 1e9 / rate));
    }

    @Override
    public void putQlogState(Map<String, Object> m) {
        m.put("slow_start_rule", SlowStartRule.HYSTART.optionValue());
        m.put("hystart_found", found.name().toLowerCase(Locale.ROOT));
        if (delayMin != Long.MAX_VALUE) {
            m.put("hystart_delay_min_ms", delayMin / 1e6);
        }
    }
}
