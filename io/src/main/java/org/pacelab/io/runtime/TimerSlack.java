package org.pacelab.io.runtime;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * The calling thread's timer slack (Linux prctl PR_SET_TIMERSLACK / PR_GET_TIMERSLACK through the FFM API).
 * The kernel may delay a timer expiry by up to the slack (50 µs by default) to batch wake-ups.
 */
public final class TimerSlack {
    private static final int PR_SET_TIMERSLACK = 29;
    private static final int PR_GET_TIMERSLACK = 30;
    private static final MethodHandle PRCTL;

    static {
        Linker linker = Linker.nativeLinker();
        PRCTL = linker.defaultLookup().find("prctl")
                .map(addr -> linker.downcallHandle(addr,
                        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG,
                                ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG),
                        Linker.Option.firstVariadicArg(1)))
                .orElse(null);
    }

    private TimerSlack() {}

    /** Sets the calling thread's timer slack in ns; throws with an explanation when the host cannot. */
    public static void set(long nanos) {
        if (PRCTL == null) {
            throw new UnsupportedOperationException("prctl is not available on this platform; park-tight needs Linux");
        }
        try {
            int r = (int) PRCTL.invokeExact(PR_SET_TIMERSLACK, nanos, 0L, 0L, 0L);
            if (r != 0) {
                throw new IllegalStateException("prctl(PR_SET_TIMERSLACK, " + nanos + ") failed");
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("prctl call failed", t);
        }
    }

    /** The calling thread's timer slack in ns. */
    public static long get() {
        if (PRCTL == null) {
            throw new UnsupportedOperationException("prctl is not available on this platform");
        }
        try {
            return (int) PRCTL.invokeExact(PR_GET_TIMERSLACK, 0L, 0L, 0L, 0L);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("prctl call failed", t);
        }
    }
}
