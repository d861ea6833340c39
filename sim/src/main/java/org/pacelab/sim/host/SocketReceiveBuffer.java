package org.pacelab.sim.host;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

/**
 * A UDP socket's receive buffer: datagrams with their arrival times, in arrival order, held until the host reads
 * them; a datagram that does not fit in the buffer's byte limit is dropped, as the kernel does. Circular arrays,
 * so queueing a datagram allocates nothing.
 */
final class SocketReceiveBuffer {
    private ByteBuffer[] data = new ByteBuffer[256];
    private InetSocketAddress[] from = new InetSocketAddress[256];
    private long[] arrival = new long[256];
    private int head;
    private int size;
    private long bytes;
    private final long limit;
    private long drops;

    SocketReceiveBuffer(long limitBytes) {
        this.limit = limitBytes;
    }

    /** Queues a datagram (the buffer is not copied; it must not change). Returns false when dropped. */
    boolean offer(ByteBuffer datagram, InetSocketAddress source, long time) {
        int len = datagram.remaining();
        if (bytes + len > limit) {
            drops++;
            return false;
        }
        if (size == data.length) {
            grow();
        }
        int i = (head + size) & (data.length - 1);
        data[i] = datagram;
        from[i] = source;
        arrival[i] = time;
        size++;
        bytes += len;
        return true;
    }

    private void grow() {
        int n = data.length * 2;
        ByteBuffer[] d = new ByteBuffer[n];
        InetSocketAddress[] f = new InetSocketAddress[n];
        long[] a = new long[n];
        for (int k = 0; k < size; k++) {
            int i = (head + k) & (data.length - 1);
            d[k] = data[i];
            f[k] = from[i];
            a[k] = arrival[i];
        }
        data = d;
        from = f;
        arrival = a;
        head = 0;
    }

    /** Whether a datagram that arrived at or before {@code now} is waiting. */
    boolean readable(long now) {
        return size > 0 && arrival[head] <= now;
    }

    /** How many datagrams that arrived at or before {@code now} are waiting. */
    int readableCount(long now, int atMost) {
        int n = 0;
        while (n < size && n < atMost && arrival[(head + n) & (data.length - 1)] <= now) {
            n++;
        }
        return n;
    }

    /** Copies the first datagram into {@code dst} (cleared, then flipped) and returns where it came from. */
    InetSocketAddress poll(ByteBuffer dst) {
        ByteBuffer d = data[head];
        InetSocketAddress f = from[head];
        dst.clear();
        dst.put(d.duplicate());
        dst.flip();
        bytes -= d.remaining();
        data[head] = null;
        from[head] = null;
        head = (head + 1) & (data.length - 1);
        size--;
        return f;
    }

    long drops() {
        return drops;
    }
}
