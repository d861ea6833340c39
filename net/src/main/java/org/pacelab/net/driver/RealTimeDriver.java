package org.pacelab.net.driver;

import java.util.List;
import org.pacelab.net.link.Link;
import org.pacelab.net.link.PacketSink;
import org.pacelab.net.sys.JvmServiceThreads;
import org.pacelab.net.sys.Libc;
import org.pacelab.net.sys.Poller;
import org.pacelab.net.sys.SysException;

/**
 * Drives a {@link Link} in real time for an emulator front-end. The front-end's loop calls {@link #advance} with
 * the current time, then {@link #await}, which sleeps in ppoll (timer slack lowered to 1 us) until
 * {@code spinNanos} before the model's next event or until a descriptor is readable, and spins the rest, so
 * deliveries leave within microseconds of their model time. Both directions are advanced merged in time order,
 * so observers (tap, event log) see events sorted by time.
 */
public final class RealTimeDriver {
    /** The emulator thread's SCHED_FIFO priority (below the senders' 30 of the host set-up). */
    public static final int PRIORITY = 10;
    private static final long MAX_WAIT = 50_000_000L;
    private static final long FLUSH_EVERY = 200_000_000L;

    private final ModelClock clock;
    private final Link link;
    private final PacketSink down, up;
    private final long spinNanos;
    private final Runnable flush;
    private long modelTime;
    private long lastFlush;

    public RealTimeDriver(ModelClock clock, Link link, PacketSink down, PacketSink up, long spinNanos, Runnable flush) {
        this.clock = clock;
        this.link = link;
        this.down = down;
        this.up = up;
        this.spinNanos = spinNanos;
        this.flush = flush;
    }

    /**
     * Call once on the driving thread before the loop: lowers its timer slack to 1 us and, if {@code realtime},
     * makes it SCHED_FIFO (root), and the JVM's stop-the-world threads with it ({@link JvmServiceThreads}: a garbage
     * collection otherwise stalls the emulator for as long as its normal-priority workers wait for a CPU). Returns a
     * sentence for the user if real-time scheduling was refused, else null.
     */
    public String prepareThread(boolean realtime) {
        Libc.setTimerSlack(1000);
        if (!realtime) return null;
        int e = Libc.setRealtimePriority(PRIORITY);
        if (e != 0) return "real-time scheduling refused (" + Libc.strerror(e) + "); running with normal priority";
        List<String> jvm = JvmServiceThreads.promote(PRIORITY);
        return jvm.size() == 1 && jvm.getFirst().startsWith("not applied:")
                ? "the JVM's garbage collector threads stay at normal priority (" + jvm.getFirst() + "); a collection can stall the emulator"
                : null;
    }

    public ModelClock clock() { return clock; }

    /** How long before an event the driver stops sleeping and spins. */
    public long spinNanos() { return spinNanos; }

    public long modelTime() { return modelTime; }

    /** Advances both directions to {@code t} (never backwards), processing their events merged in time order. */
    public void advance(long t) {
        if (t < modelTime) t = modelTime;
        modelTime = t;
        while (true) {
            long nd = link.down().nextEventTime(), nu = link.up().nextEventTime();
            if (Math.min(nd, nu) > t) break;
            if (nd <= nu) link.down().advanceTo(nd, down);
            else link.up().advanceTo(nu, up);
        }
        link.down().advanceTo(t, down);
        link.up().advanceTo(t, up);
    }

    /** Advances to now. */
    public void advanceToNow() { advance(clock.now()); }

    /**
     * The model time to give a packet read at {@code now} whose kernel receive time (ns since the epoch, 0 if unknown)
     * is {@code kernelEpochNanos}, with {@code wallEpochNanos} the wall clock read just before {@code now}: see
     * {@link #arrivalTime(long, long, long, long)}.
     */
    public long arrivalTime(long kernelEpochNanos, long now, long wallEpochNanos) {
        return arrivalTime(kernelEpochNanos, now, wallEpochNanos, modelTime);
    }

    /**
     * The read time less how long the datagram waited in the socket, both ends of the wait on the wall clock (the
     * kernel's stamp and a reading just before the read time), kept between {@code modelTime} and {@code now}; the read
     * time when the kernel gave no stamp. Only the wait crosses from the wall clock to the model's (CLOCK_MONOTONIC):
     * a step of the wall clock since the emulator started (a VM restored from a snapshot, {@code date -s}) does not
     * move the arrival. Converting the stamp through the wall-clock time of model time 0 instead put every arrival
     * after a forward step at the read time (the 2026-12-04 re-run: 23-29 ms steps, each packet's wait in the socket,
     * 21 us at the median and up to 75 ms, counted as the sender's lateness).
     */
    static long arrivalTime(long kernelEpochNanos, long now, long wallEpochNanos, long modelTime) {
        if (kernelEpochNanos == 0) return Math.max(modelTime, now);
        long waited = Math.max(0, wallEpochNanos - kernelEpochNanos);
        return Math.max(modelTime, now - waited);
    }

    /** Waits for the next model event or readable descriptor; returns the number of ready descriptors. */
    public int await(Poller poller) throws SysException {
        long next = link.nextEventTime();
        long wait = next == Long.MAX_VALUE ? MAX_WAIT : next - clock.now();
        if (wait > spinNanos) {
            maybeFlush();
            return poller.await(Math.min(wait - spinNanos, MAX_WAIT));
        }
        int ready = poller.await(0);
        if (ready == 0 && wait > 0) Thread.onSpinWait();
        return ready;
    }

    private void maybeFlush() {
        long now = clock.now();
        if (now - lastFlush < FLUSH_EVERY) return;
        lastFlush = now;
        flush.run();
    }
}
