package org.pacelab.lab.interop;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.IntPredicate;

/**
 * UDP ports for the relays and servers of interop cells, several of which may run at once ({@code pacelab interop
 * --jobs}). A port found free is bound only later — by the relay a moment after, by a server once its process has
 * started, seconds later on a loaded host — so two things keep it from being used twice meanwhile:
 * <ul>
 * <li>it is held from {@link #take} until the cell {@link #release}s it, and no other cell of this JVM is given a held
 * port (probing alone, as {@link org.pacelab.lab.run.PortProbe#freePort} does, gives two cells probing at once the
 * same port when the first has not bound it yet);</li>
 * <li>it comes from outside the kernel's ephemeral range ({@code /proc/sys/net/ipv4/ip_local_port_range}), which the
 * kernel picks from for every socket bound to port 0 — the clients of the other cells, the relay's rebinding sockets
 * — and never outside it, so none of those can take a held port before its server binds it.</li>
 * </ul>
 * Ports are checked free on the wildcard address (every loopback address, both families), picked at random.
 */
final class LoopbackPorts {
    /** The lowest port handed out below the ephemeral range (the well-known services are under it). */
    static final int FLOOR = 10_000;
    /** Picks per {@link #take} before giving up (every port of the range held or in use). */
    private static final int ATTEMPTS = 10_000;
    private static final Path RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");

    /** The ports of this host, shared by every matrix of this JVM. */
    static final LoopbackPorts HOST = outside(ephemeralRange(RANGE));

    private final int low;
    private final int high;
    private final IntPredicate free;
    private final SplittableRandom random = new SplittableRandom();
    private final Set<Integer> held = new HashSet<>();

    /** Ports from {@code low} to {@code high - 1} that {@code free} says are not in use. */
    LoopbackPorts(int low, int high, IntPredicate free) {
        if (low < 1 || high > 65_536 || high <= low) {
            throw new IllegalArgumentException("no ports between " + low + " and " + (high - 1));
        }
        this.low = low;
        this.high = high;
        this.free = free;
    }

    /** The first and last port of the kernel's ephemeral range; Linux's default 32768–60999 when it cannot be read. */
    static int[] ephemeralRange(Path file) {
        try {
            String[] f = Files.readString(file).strip().split("\\s+");
            int first = Integer.parseInt(f[0]);
            int last = Integer.parseInt(f[1]);
            if (first >= 1 && first <= last && last <= 65_535) {
                return new int[] {first, last};
            }
        } catch (IOException | RuntimeException e) {
            // no such file (another kernel, a sandbox): the default
        }
        return new int[] {32_768, 60_999};
    }

    /**
     * Ports outside the ephemeral range {@code [first, last]}: from {@link #FLOOR} (or 1024 when the range starts below
     * it) up to just below it, or above it when that side is larger; all ports from 1024 when the range leaves none.
     */
    static LoopbackPorts outside(int[] range) {
        int floor = range[0] > FLOOR ? FLOOR : 1024;
        int below = range[0] - floor;
        int above = 65_535 - range[1];
        if (below >= above && below > 0) {
            return new LoopbackPorts(floor, range[0], LoopbackPorts::free);
        }
        if (above > 0) {
            return new LoopbackPorts(range[1] + 1, 65_536, LoopbackPorts::free);
        }
        return new LoopbackPorts(1024, 65_536, LoopbackPorts::free);
    }

    /** The first port that may be handed out. */
    int low() {
        return low;
    }

    /** One past the last port that may be handed out. */
    int high() {
        return high;
    }

    /** {@code n} different ports, free now and held by no other cell, held until {@link #release}d. */
    synchronized List<Integer> take(int n) throws IOException {
        List<Integer> out = new ArrayList<>(n);
        for (int attempt = 0; out.size() < n; attempt++) {
            if (attempt == ATTEMPTS) {
                held.removeAll(out);
                throw new IOException("no free UDP port left between " + low + " and " + (high - 1) + " for the cell ("
                        + held.size() + " held by the cells running, the others in use)");
            }
            int p = low + random.nextInt(high - low);
            if (!held.contains(p) && free.test(p)) {
                held.add(p);
                out.add(p);
            }
        }
        return out;
    }

    /** Gives the ports back (their cell has stopped the processes and the relay that used them). */
    synchronized void release(Collection<Integer> ports) {
        held.removeAll(ports);
    }

    /** Whether a UDP socket can bind the port on the wildcard address: no UDP socket of any address uses it. */
    static boolean free(int port) {
        try (DatagramSocket s = new DatagramSocket((SocketAddress) null)) {
            s.bind(new InetSocketAddress(port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
