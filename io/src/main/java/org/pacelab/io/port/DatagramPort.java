package org.pacelab.io.port;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

/**
 * A UDP socket as the runtime sees it: non-blocking receive and send, and a wait for incoming datagrams.
 * Implementations: {@link ChannelDatagramPort} on the JDK's DatagramChannel; FFM-based ports for the
 * Linux-specific send strategies.
 */
public interface DatagramPort extends Closeable {

    /**
     * Receives one datagram into {@code dst} (from its position) if one is waiting.
     *
     * @return the sender, or null when no datagram is waiting
     */
    InetSocketAddress receive(ByteBuffer dst) throws IOException;

    /**
     * When the datagram the last {@link #receive} returned arrived, on {@link System#nanoTime()}'s clock: the kernel's
     * receive timestamp where the socket gets one (so time the datagram waited in the socket buffer counts), else the
     * time this port read it.
     */
    long lastReceiveTime();

    /**
     * How many datagrams the kernel dropped on this socket because its receive buffer was full, as far as the port knows
     * (it learns the count with the next datagram it reads after a drop), or -1 when this port cannot tell.
     */
    default long receiveBufferDrops() {
        return -1;
    }

    /**
     * Sends the datagram between {@code src}'s position and limit.
     *
     * @return false when the socket's send buffer is full (try again later)
     */
    boolean send(ByteBuffer src, InetSocketAddress to) throws IOException;

    /** Waits until a datagram may be readable or {@code timeoutNanos} passed (0 returns at once). */
    void awaitReadable(long timeoutNanos) throws IOException;

    /**
     * Makes {@link #awaitReadable} also return when {@code other} (a second socket of the same endpoint, e.g. a server's
     * preferred address, RFC 9000 §9.6) may have a datagram. Returns false when this port cannot wait on that one.
     */
    default boolean alsoWaitFor(DatagramPort other) {
        return false;
    }

    /** Whether datagrams already read from the kernel wait in this port (then {@link #awaitReadable} returns at once). */
    default boolean hasBuffered() {
        return false;
    }

    /** Wakes a thread blocked in {@link #awaitReadable}. */
    void wakeup();

    InetSocketAddress localAddress() throws IOException;

    /**
     * The IP traffic class byte (its low two bits the ECN field, RFC 3168) of the datagram the last {@link #receive}
     * returned, or -1 when this port cannot tell (the JDK's DatagramChannel never reports it).
     */
    default int lastTrafficClass() {
        return -1;
    }

    /**
     * Sets the traffic class byte (its low two bits the ECN codepoint) of the datagrams sent with {@link #send} from now
     * on; only a change costs a system call.
     */
    void setTrafficClass(int trafficClass) throws IOException;
}
