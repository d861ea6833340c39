package org.pacelab.io.runtime;

/** Send strategy {@code spin}: busy-waits on System.nanoTime() (one core stays busy while pacing). */
public final class SpinWait implements WaitStrategy {
    @Override
    public String name() { return "spin"; }

    @Override
    public void waitUntil(long deadline) {
        while (System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
    }

    @Override
    public long socketWaitThreshold() { return 1_000_000L; }
}
