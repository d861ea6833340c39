package org.pacelab.net.sys;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** Waits for any of a set of file descriptors to become readable, with a nanosecond timeout (ppoll). */
public final class Poller implements AutoCloseable {
    private final Arena arena = Arena.ofShared();
    private MemorySegment fds = arena.allocate(8 * 16, 8);
    private final MemorySegment timespec = arena.allocate(16, 8);
    private int[] fdList = new int[16];
    private int count;

    public void add(int fd) {
        if (count == fdList.length) {
            fdList = java.util.Arrays.copyOf(fdList, count * 2);
            MemorySegment bigger = arena.allocate(8L * fdList.length, 8);
            MemorySegment.copy(fds, 0, bigger, 0, 8L * count);
            fds = bigger;
        }
        fdList[count] = fd;
        fds.set(ValueLayout.JAVA_INT, 8L * count, fd);
        fds.set(ValueLayout.JAVA_SHORT, 8L * count + 4, Libc.POLLIN);
        fds.set(ValueLayout.JAVA_SHORT, 8L * count + 6, (short) 0);
        count++;
    }

    public void remove(int fd) {
        for (int i = 0; i < count; i++) {
            if (fdList[i] == fd) {
                int last = count - 1;
                fdList[i] = fdList[last];
                MemorySegment.copy(fds, 8L * last, fds, 8L * i, 8);
                count--;
                return;
            }
        }
    }

    /**
     * Waits up to {@code timeoutNanos} (0 = just check; negative = forever).
     *
     * @return number of ready descriptors (0 on timeout or signal)
     */
    public int await(long timeoutNanos) throws SysException {
        MemorySegment ts = MemorySegment.NULL;
        if (timeoutNanos >= 0) {
            timespec.set(ValueLayout.JAVA_LONG, 0, timeoutNanos / 1_000_000_000L);
            timespec.set(ValueLayout.JAVA_LONG, 8, timeoutNanos % 1_000_000_000L);
            ts = timespec;
        }
        int n = Libc.ppoll(fds, count, ts);
        if (n < 0) {
            int e = Libc.errno();
            if (e == Libc.EINTR) return 0;
            throw new SysException("ppoll failed: " + Libc.strerror(e), e);
        }
        return n;
    }

    /** Whether descriptor number {@code i} (in insertion order, after removals) is readable after {@link #await}. */
    public boolean readable(int i) { return (fds.get(ValueLayout.JAVA_SHORT, 8L * i + 6) & 0x19) != 0; }

    public int fdAt(int i) { return fdList[i]; }

    public int size() { return count; }

    @Override
    public void close() { arena.close(); }
}
