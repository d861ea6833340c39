package org.pacelab.sim.calibrate;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;

import org.pacelab.io.port.ChannelDatagramPort;
import org.pacelab.net.sys.SysException;
import org.pacelab.net.sys.UdpSocket;

/**
 * Measures UDP system-call costs on loopback: the io runtime's DatagramChannel send and receive (one datagram per
 * call, and a receive that finds nothing), and through FFM sendmmsg, GSO sends (UDP_SEGMENT) and recvmmsg for
 * several batch sizes, each fitted as a fixed cost per call plus a cost per datagram. A thread drains the receiving
 * socket while sends are timed, as the emulator's relay does in a real run. Datagrams are 1452 bytes, pacelab's
 * default payload.
 */
final class SyscallProbe {
    static final int DATAGRAM = 1452;
    private static final InetSocketAddress LOOPBACK = new InetSocketAddress("127.0.0.1", 0);

    /** Costs in ns; a value of -1 means the host refused the call (the reason is in {@link #notes}). */
    record Costs(long sendmsg, long recv, long recvEmpty, long selectNow, long sendmmsgCall, long sendmmsgPerPacket, long gsoCall,
                 long gsoPerSegment, long recvmmsgCall, long recvmmsgPerPacket, String notes) {}

    private SyscallProbe() {}

    static Costs measure(int rounds) throws IOException {
        long[] send = new long[rounds];
        long[] recv;
        long[] empty = new long[rounds];
        long[] select = new long[rounds];
        try (ChannelDatagramPort rxPort = ChannelDatagramPort.bind(LOOPBACK, 4 << 20);
             ChannelDatagramPort txPort = ChannelDatagramPort.bind(LOOPBACK, 4 << 20)) {
            InetSocketAddress to = rxPort.localAddress();
            ByteBuffer tx = ByteBuffer.allocate(DATAGRAM);
            ByteBuffer rx = ByteBuffer.allocate(65536);
            try (Drain d = new Drain(() -> {
                while (rxPort.receive(rx.clear()) != null) {
                    // drain
                }
                rxPort.awaitReadable(1_000_000L);
            })) {
                for (int i = 0; i < rounds; i++) {
                    long t0 = System.nanoTime();
                    for (int k = 0; k < 16; k++) {
                        txPort.send(tx.clear(), to);
                    }
                    send[i] = (System.nanoTime() - t0) / 16;
                }
            }
            recv = new long[Math.min(rounds, 1000)];
            for (int i = 0; i < recv.length; i += 16) {
                for (int k = 0; k < 16; k++) {
                    txPort.send(tx.clear(), to);
                }
                for (int k = 0; k < 16 && i + k < recv.length; k++) {
                    long t0 = System.nanoTime();
                    rxPort.receive(rx.clear());
                    recv[i + k] = System.nanoTime() - t0;
                }
            }
            for (int i = 0; i < rounds; i++) {
                long t0 = System.nanoTime();
                rxPort.receive(rx.clear());
                empty[i] = System.nanoTime() - t0;
                t0 = System.nanoTime();
                rxPort.awaitReadable(0);
                select[i] = System.nanoTime() - t0;
            }
        }
        StringBuilder notes = new StringBuilder();
        long[] mmsg = batched(rounds, notes, false);
        long[] gso = batched(rounds, notes, true);
        long[] rmmsg = recvBatched(rounds, notes);
        return new Costs(Stats.median(send), Stats.median(recv), Stats.median(empty), Stats.median(select), mmsg[0], mmsg[1], gso[0], gso[1],
                rmmsg[0], rmmsg[1], notes.toString().trim());
    }

    /** Fits sendmmsg (or GSO) call cost + per-datagram cost over batch sizes 1, 4, 16, 40. */
    private static long[] batched(int rounds, StringBuilder notes, boolean gso) throws SysException {
        int[] sizes = {1, 4, 16, 40};
        try (UdpSocket rxSock = UdpSocket.bind(LOOPBACK, "calibration receiver");
             UdpSocket txSock = UdpSocket.bind(LOOPBACK, "calibration sender")) {
            rxSock.setBuffers(4 << 20);
            txSock.setBuffers(4 << 20);
            txSock.connect(rxSock.localAddress());
            try (BatchSyscalls calls = new BatchSyscalls(txSock.fd(), 40, DATAGRAM);
                 Drain d = new Drain(() -> {
                     while (rxSock.receive() >= 0) {
                         // drain
                     }
                     java.util.concurrent.locks.LockSupport.parkNanos(20_000L);
                 })) {
                double[] x = new double[sizes.length];
                double[] y = new double[sizes.length];
                for (int s = 0; s < sizes.length; s++) {
                    long[] t = new long[Math.max(16, rounds / 8)];
                    for (int i = 0; i < t.length; i++) {
                        long t0 = System.nanoTime();
                        long r = gso ? calls.sendGso(sizes[s]) : calls.sendmmsg(sizes[s]);
                        t[i] = System.nanoTime() - t0;
                        if (r < 0 && -r != org.pacelab.net.sys.Libc.EAGAIN) {
                            notes.append(gso ? "GSO send" : "sendmmsg").append(" failed with errno ").append(-r)
                                    .append(" (").append(org.pacelab.net.sys.Libc.strerror((int) -r)).append("); ");
                            return new long[] {-1, -1};
                        }
                    }
                    x[s] = sizes[s];
                    y[s] = Stats.median(t);
                }
                double[] fit = Stats.line(x, y);
                return new long[] {Math.round(fit[0]), Math.round(fit[1])};
            }
        }
    }

    /** Fits recvmmsg call cost + per-datagram cost over batch sizes 1, 8, 32. */
    private static long[] recvBatched(int rounds, StringBuilder notes) throws SysException {
        int[] sizes = {1, 8, 32};
        try (UdpSocket rxSock = UdpSocket.bind(LOOPBACK, "calibration receiver");
             UdpSocket txSock = UdpSocket.bind(LOOPBACK, "calibration sender")) {
            rxSock.setBuffers(4 << 20);
            txSock.connect(rxSock.localAddress());
            rxSock.connect(txSock.localAddress());
            try (BatchSyscalls calls = new BatchSyscalls(rxSock.fd(), 32, 2048)) {
                java.lang.foreign.MemorySegment out = java.lang.foreign.Arena.ofAuto().allocate(DATAGRAM);
                double[] x = new double[sizes.length];
                double[] y = new double[sizes.length];
                for (int s = 0; s < sizes.length; s++) {
                    long[] t = new long[Math.max(16, rounds / 16)];
                    for (int i = 0; i < t.length; i++) {
                        for (int k = 0; k < sizes[s]; k++) {
                            txSock.send(out, DATAGRAM, null);
                        }
                        long t0 = System.nanoTime();
                        int r = calls.recvmmsg(sizes[s]);
                        t[i] = System.nanoTime() - t0;
                        if (r < 0) {
                            notes.append("recvmmsg failed with errno ").append(-r).append("; ");
                            return new long[] {-1, -1};
                        }
                        while (calls.recvmmsg(sizes[s]) > 0) {
                            // leave the socket empty for the next round
                        }
                    }
                    x[s] = sizes[s];
                    y[s] = Stats.median(t);
                }
                double[] fit = Stats.line(x, y);
                return new long[] {Math.round(fit[0]), Math.round(fit[1])};
            }
        }
    }

    /** Runs a body in a loop on its own thread until closed (drains a receiving socket). */
    private static final class Drain implements AutoCloseable {
        interface Body {
            void run() throws IOException;
        }

        private final AtomicBoolean stop = new AtomicBoolean();
        private final Thread thread;

        Drain(Body body) {
            thread = Thread.ofPlatform().name("calibrate-drain").daemon(true).start(() -> {
                try {
                    while (!stop.get()) {
                        body.run();
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }

        @Override
        public void close() {
            stop.set(true);
            try {
                thread.join(2_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
