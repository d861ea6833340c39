package org.pacelab.quic.cc;

/**
 * The state every simple {@link SlowStartExit} rule shares: it runs from the connection's start until it ends slow
 * start itself ({@link #stop()} when its exit fires) or a congestion event stops it; {@link #resume()} lets a rule run
 * again (the onset detector that BBR re-arms). Rules with phases of their own (HyStart++, onset-bdp) keep those instead.
 */
abstract class RunningRule implements SlowStartExit {
    private boolean active = true;

    /** The rule is over for this connection (its exit fired, or a congestion event). */
    @Override
    public final void stop() {
        active = false;
    }

    @Override
    public final boolean active() {
        return active;
    }

    /** The rule runs again. */
    protected final void resume() {
        active = true;
    }
}
