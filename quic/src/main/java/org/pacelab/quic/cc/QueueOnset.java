package org.pacelab.quic.cc;

import java.util.Map;

/**
 * Leaves slow start at the onset of queueing, ACK by ACK: once the RTT samples have stayed above the connection's
 * minimum RTT by more than {@code max(minDelay, minRTT / 32)} for {@value #SAMPLES} consecutive ACKs spanning at
 * least {@value #SPAN_NS} ns, slow start ends, with the window the sender had when that run of samples began
 * ({@link #exitWindow}) as window and ssthresh: the packets sent while the run confirmed the queue are already in
 * flight and would otherwise stand in the queue, and a loss right after the exit would cut a window that just
 * reached the BDP by CUBIC's β. Nothing happens below {@link HyStart#LOW_WINDOW} packets of window.
 *
 * <p>Why not a round's minimum (HyStart++, Linux HyStart's delay): a paced sender in slow start sends each round's
 * window at about twice the bottleneck rate over part of the round, then waits for ACKs, so the queue it builds
 * drains before the next round starts; every round's minimum RTT stays at the base RTT until the window exceeds the
 * path's BDP plus buffer — the loss comes first (pacelab on quic-steps: HyStart++ enters CSS one round late, with the
 * window already twice what the path holds). The queue is visible within the round, in consecutive samples, as soon
 * as the pacing rate exceeds the bottleneck rate. Why not the ACK train: with pacing it measures the pacer's
 * spreading of the round, not the bottleneck (see {@link HyStart}).
 *
 * <p>Noise: a short RTT spike (a delayed ACK, a receiver's hiccup) breaks the run with its neighbours; a stall of the
 * sender (garbage collection, a cold JVM, a late wake-up) inflates the samples of the ACKs it then processes
 * together, at one instant, so they span no time and do not count as a run; a sample below the threshold restarts it.
 * The threshold's floor covers the ACK-processing lateness of a pacing sender, which waits up to its pacing gap
 * before it reads arrived ACKs.
 */
public final class QueueOnset extends RunningRule {
    /** Consecutive samples above the threshold. */
    public static final int SAMPLES = 8;
    /** The time those samples must span, ns. */
    public static final long SPAN_NS = 2_000_000L;
    /** The threshold as a fraction of the minimum RTT. */
    public static final int RTT_DIVISOR = 32;
    /** The default floor of the threshold, ns. */
    public static final long DEFAULT_MIN_DELAY = 1_000_000L;

    private final long minDelay;
    private final boolean paced;
    private long minRtt = Long.MAX_VALUE;
    private int run;
    private long runStart;
    private long exitDelay = -1;
    private long runStartWindow;
    private long exitWindow = -1;
    private long runAckedBytes;
    private long exitAckRate = -1;

    /**
     * @param minDelay the floor of the threshold, ns (at least 1)
     * @param paced    whether the sender paces; a sender that does not sends each round's window as a burst, which
     *                 queues at the bottleneck at any window, so the run must then last half a minimum RTT (the
     *                 burst is then at least half the BDP, Linux HyStart's unpaced ACK-train threshold)
     */
    public QueueOnset(long minDelay, boolean paced) {
        if (minDelay < 1) {
            throw new IllegalArgumentException("the onset threshold's floor must be positive, got " + minDelay + " ns");
        }
        this.minDelay = minDelay;
        this.paced = paced;
    }

    /** The time a run of samples must span, ns. */
    public long span() {
        return paced || minRtt == Long.MAX_VALUE ? SPAN_NS : Math.max(SPAN_NS, minRtt / 2);
    }

    /** The threshold for the current minimum RTT, ns. */
    public long threshold() {
        return minRtt == Long.MAX_VALUE ? minDelay : Math.max(minDelay, minRtt / RTT_DIVISOR);
    }

    public long minRtt() { return minRtt; }

    /** The consecutive samples above the threshold so far (0 after a sample below it). */
    public int run() { return run; }

    /** The queueing delay (sample minus minimum) that ended slow start, ns; -1 before. */
    public long exitDelay() { return exitDelay; }

    /**
     * The rate at which the ACKs of the run that ended slow start acknowledged bytes, bytes per second (the bytes of
     * the run's ACKs after its first, over the time from the first to the last): while the samples stay above the
     * threshold a queue stands at the bottleneck, which then serves without pause, so this is its rate; -1 before.
     */
    public long exitAckRate() { return exitAckRate; }

    @Override
    public void onPacketSent(PacketInfo packet) {}

    @Override
    public boolean onAck(AckEvent ack, long congestionWindow, int maxDatagramSize) {
        long sample = ack.rtt().latestRtt();
        if (!active() || sample <= 0) {
            return false;
        }
        minRtt = Math.min(minRtt, sample);
        if (sample - minRtt <= threshold()) {
            run = 0;
            return false;
        }
        if (run++ == 0) {
            runStart = ack.now();
            runStartWindow = congestionWindow;
            runAckedBytes = 0;
        } else {
            runAckedBytes += ack.ackedBytes();
        }
        if (run >= SAMPLES && ack.now() - runStart >= span()
                && congestionWindow >= (long) HyStart.LOW_WINDOW * maxDatagramSize) {
            exitDelay = sample - minRtt;
            exitAckRate = (long) (runAckedBytes * 1e9 / (ack.now() - runStart));
            exitWindow = Math.max(runStartWindow, (long) HyStart.LOW_WINDOW * maxDatagramSize);
            stop();
            return true;
        }
        return false;
    }

    @Override
    public long exitWindow(long congestionWindow) {
        return exitWindow > 0 ? exitWindow : congestionWindow;
    }

    /** Runs again from a new run of samples, keeping the minimum RTT (BBR re-arms it for each ProbeBW_UP). */
    public void rearm() {
        resume();
        run = 0;
        exitWindow = -1;
    }

    @Override
    public void putQlogState(Map<String, Object> m) {
        m.put("slow_start_rule", SlowStartRule.QUEUE_ONSET.optionValue());
        if (exitDelay >= 0) {
            m.put("onset_delay_ms", exitDelay / 1e6);
        }
    }
}
