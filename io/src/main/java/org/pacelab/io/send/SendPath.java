package org.pacelab.io.send;

import java.io.IOException;
import java.net.InetSocketAddress;

import org.pacelab.io.port.ChannelDatagramPort;
import org.pacelab.io.port.DatagramPort;
import org.pacelab.io.port.NativeDatagramPort;
import org.pacelab.io.runtime.WaitStrategy;
import org.pacelab.net.sys.Libc;

/**
 * An endpoint's socket and the way it sends, as a {@link SendConfig} describes them: the port, the transmitter
 * that hands datagrams to it, the wait strategy, and the pacing look-ahead the connections must be given.
 *
 * @param port        the socket
 * @param transmitter sends what the connections release
 * @param waitStrategy how the event loop waits for short deadlines
 * @param lookahead   how far ahead of their intended send time packets are handed over, ns (0 without txtime)
 * @param realtime    the event loop thread's SCHED_FIFO priority, 0 to leave it alone ({@link #prepareThread()})
 */
public record SendPath(DatagramPort port, Transmitter transmitter, WaitStrategy waitStrategy, long lookahead,
                       int realtime)
        implements AutoCloseable {

    /**
     * Checks that the host can honour {@code config} ({@link KernelSupport}), then opens the socket.
     *
     * @param destination the peer when known (a client), else null (a server: each new peer is checked on first send)
     * @throws UnsupportedSendStrategyException with one sentence when the host cannot honour the configuration
     */
    public static SendPath open(SendConfig config, InetSocketAddress local, int bufferBytes, InetSocketAddress destination)
            throws IOException {
        if (config.socket() == SendConfig.Socket.JDK) {
            ChannelDatagramPort port = ChannelDatagramPort.bind(local, bufferBytes);
            return new SendPath(port, new DirectTransmitter(port), config.waitStrategy(), 0, priority(config));
        }
        if (config.gsoAuto() && KernelSupport.whyNoGso() != null) {
            config = config.withGso(1); // a default, not a request: without UDP GSO every datagram is its own send
        }
        KernelSupport.requireHost(config, local);
        if (destination != null) {
            KernelSupport.requireToward(config, destination);
        }
        NativeDatagramPort port = NativeDatagramPort.bind(local, bufferBytes, config.recvBatch(), config.gro());
        try {
            return new SendPath(port, new MessageTransmitter(port, config), config.waitStrategy(), config.pacingLookahead(),
                    priority(config));
        } catch (IOException | RuntimeException e) {
            port.close();
            throw e;
        }
    }

    private static int priority(SendConfig config) {
        return config.realtime() ? config.realtimePriority() : 0;
    }

    /**
     * Called on the event loop thread before it starts: with {@code realtime}, makes it SCHED_FIFO.
     *
     * @throws UnsupportedSendStrategyException when the host refuses (not root, no CAP_SYS_NICE)
     */
    public void prepareThread() throws UnsupportedSendStrategyException {
        if (realtime == 0) {
            return;
        }
        int e = Libc.setRealtimePriority(realtime);
        if (e != 0) {
            throw new UnsupportedSendStrategyException(SendConfig.REALTIME + ": cannot make the event loop SCHED_FIFO ("
                    + Libc.strerror(e) + "); it needs root or CAP_SYS_NICE — drop " + SendConfig.REALTIME + ".");
        }
    }

    @Override
    public void close() throws IOException {
        try {
            transmitter.close();
        } finally {
            port.close();
        }
    }
}
