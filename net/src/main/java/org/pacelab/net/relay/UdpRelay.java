package org.pacelab.net.relay;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.pacelab.net.dc.DcFactory;
import org.pacelab.net.dc.DcFlowMode;
import org.pacelab.net.dc.DcReport;
import org.pacelab.net.dc.DcTimeline;
import org.pacelab.net.dc.DualConnectivityDownlink;
import org.pacelab.net.driver.DriverStats;
import org.pacelab.net.driver.LoopOccupancy;
import org.pacelab.net.driver.ModelClock;
import org.pacelab.net.driver.RealTimeDriver;
import org.pacelab.net.driver.WarmUp;
import org.pacelab.net.link.Direction;
import org.pacelab.net.link.DropCause;
import org.pacelab.net.link.EventType;
import org.pacelab.net.link.Link;
import org.pacelab.net.link.LinkObserver;
import org.pacelab.net.link.Packet;
import org.pacelab.net.log.EventLogWriter;
import org.pacelab.net.log.LinkCounters;
import org.pacelab.net.pcap.IpUdpHeaders;
import org.pacelab.net.pcap.PcapngWriter;
import org.pacelab.net.spec.LinkFactory;
import org.pacelab.net.spec.SpecException;
import org.pacelab.net.sys.Poller;
import org.pacelab.net.sys.SysException;
import org.pacelab.net.sys.UdpSocket;

/**
 * The unprivileged front-end: a UDP relay between clients and servers that sends every datagram through the
 * link model. Each route is a listening address and the server behind it; clients talk to a route's address and
 * each client 5-tuple gets its own socket toward that route's server (one flow). All routes share the link, so
 * several client/server pairs compete on it; on a dual-connectivity link a route says whether its flows are split
 * over both paths or use one. Downlink (server to client) datagrams are tapped where they leave the access-link wire model, uplink
 * ones where they reach the server, with synthesized IP/UDP headers carrying the server-side addresses.
 *
 * <p>One thread drives everything: it sleeps in ppoll until shortly before the model's next event (timer slack
 * lowered to 1 us), then spins, so packets leave within microseconds of their model time; datagram arrival times
 * are the kernel's receive timestamps.
 */
public final class UdpRelay implements AutoCloseable {
    private final RelayConfig config;
    private final ModelClock clock = new ModelClock();
    private final List<UdpSocket> listeners = new ArrayList<>();
    private final Map<Integer, Integer> routeByListenFd = new HashMap<>();
    private final Poller poller = new Poller();
    private final Link link;
    private final LinkCounters counters = new LinkCounters();
    private final DriverStats stats = new DriverStats();
    private final RealTimeDriver driver;
    private final EventLogWriter log;
    private final PcapngWriter tap;
    private final DualConnectivityDownlink dc;
    private final DcTimeline dcTotals;
    private final Map<ClientKey, RelayFlow> byClient = new HashMap<>();
    private final Map<Integer, RelayFlow.Binding> byFd = new HashMap<>();
    private final Map<Integer, RelayFlow.Binding> byId = new HashMap<>();
    private final int grantedBuffer;
    private final java.util.random.RandomGenerator rebindRandom;
    private volatile boolean stopping;
    private volatile boolean stopped;
    private final LoopOccupancy loop = new LoopOccupancy();
    private long nextId;
    private int nextFlowId = 1;
    /** Model time of the first datagram from a server (the rebinding schedule's origin), or MIN_VALUE before it. */
    private long origin = Long.MIN_VALUE;
    private long rebinds;
    private long staleDrops;

    /** A client address as seen on one listening socket (route). */
    private record ClientKey(int route, InetSocketAddress client) { }

    public UdpRelay(RelayConfig config) throws IOException, SpecException {
        this.config = config;
        EventLogWriter lg = null;
        PcapngWriter tp = null;
        int granted = 0;
        try {
            for (int i = 0; i < config.routes().size(); i++) {
                RelayRoute r = config.routes().get(i);
                if (config.dc() == null && r.mode() != DcFlowMode.DUAL) {
                    throw new SpecException("route " + UdpSocket.format(r.listen()) + ": path=" + r.mode().label()
                            + " needs a dual-connectivity link (--dc)");
                }
                UdpSocket l = UdpSocket.bind(r.listen(), i == 0 ? "--listen" : "--route " + UdpSocket.format(r.listen()));
                listeners.add(l);
                int g = l.setBuffers(config.bufferBytes());
                if (i == 0) granted = g;
                l.enableTimestamps();
                l.enableTrafficClass();
                poller.add(l.fd());
                routeByListenFd.put(l.fd(), i);
            }
            lg = config.eventLog() == null ? null : new EventLogWriter(config.eventLog(), clock.epochNanosOfZero(), config.seed());
            tp = config.tap() == null ? null : new PcapngWriter(config.tap(), PcapngWriter.LINKTYPE_RAW, config.snaplen(), "tap");
            LinkObserver obs = counters;
            if (lg != null) obs = LinkObserver.both(obs, lg);
            if (tp != null) obs = LinkObserver.both(obs, this::tapEvent);
            if (config.rebinding().address()) {
                for (RelayRoute r : config.routes()) {
                    if (!(r.server().getAddress() instanceof java.net.Inet4Address) || !r.server().getAddress().isLoopbackAddress()) {
                        throw new SpecException("--rebind addr needs servers on IPv4 loopback (127.0.0.0/8 offers other source "
                                + "addresses to move to), not " + UdpSocket.format(r.server()));
                    }
                }
            }
            if (config.dc() != null) {
                dcTotals = new DcTimeline(1_000_000_000L);
                obs = LinkObserver.both(obs, dcTotals);
                this.link = DcFactory.build(config.dc(), config.seed(), 0, obs);
                this.dc = (DualConnectivityDownlink) link.down();
            } else {
                dcTotals = null;
                this.link = LinkFactory.build(config.link(), config.seed(), 0, obs);
                this.dc = null;
            }
        } catch (IOException | SpecException | RuntimeException e) {
            for (UdpSocket l : listeners) l.close();
            if (lg != null) lg.discard();
            if (tp != null) tp.discard();
            throw e;
        }
        this.grantedBuffer = granted;
        this.rebindRandom = new org.pacelab.net.link.RandomStreams(config.seed()).stream("relay/rebind");
        this.log = lg;
        this.tap = tp;
        this.driver = new RealTimeDriver(clock, link, this::deliverDown, this::deliverUp, config.spinNanos(), this::flush);
    }

    private void flush() {
        if (log != null) log.flush();
        if (tap != null) tap.flush();
    }

    /** The buffer size the kernel granted to the listening socket (Linux reports twice the usable size). */
    public int grantedBuffer() { return grantedBuffer; }

    public InetSocketAddress listenAddress() throws SysException { return listeners.get(0).localAddress(); }

    /** The listening address of route {@code i} (in {@link RelayConfig#routes()} order). */
    public InetSocketAddress listenAddress(int route) throws SysException { return listeners.get(route).localAddress(); }

    /** The dual-connectivity downlink, or null on a single-path link. */
    public DualConnectivityDownlink dualConnectivity() { return dc; }

    public LinkCounters counters() { return counters; }

    public DriverStats stats() { return stats; }

    /** Packets still inside one direction of the link (not yet delivered or dropped). */
    public int packetsInside(Direction d) { return link.direction(d).packetsInside(); }

    /** Asks the loop to finish; safe from any thread (e.g. a shutdown hook). */
    public void stop() { stopping = true; }

    public boolean isStopped() { return stopped; }

    /** Runs until {@link #stop}. */
    public void run() throws IOException {
        loop.enter();
        String warning = driver.prepareThread(config.realtime());
        if (warning != null) System.err.println("pacelab emulate: " + warning);
        try {
            while (!stopping) pass();
        } finally {
            stopped = true;
            loop.leave();
        }
    }

    /** One pass of the loop; the warm-up runs the same passes over its copy. */
    private void pass() throws IOException {
        // read first: arrivals are stamped with their kernel times before the model moves on to now
        if (driver.await(poller) > 0) receiveReady();
        driver.advanceToNow();
    }

    private void receiveReady() throws IOException {
        int n = poller.size();
        int[] ready = new int[n];
        int k = 0;
        for (int i = 0; i < n; i++) if (poller.readable(i)) ready[k++] = poller.fdAt(i);
        for (int i = 0; i < k; i++) {
            int fd = ready[i];
            Integer route = routeByListenFd.get(fd);
            if (route != null) {
                drain(listeners.get(route), route, null);
            } else {
                RelayFlow.Binding b = byFd.get(fd);
                if (b != null) drain(b.socket(), -1, b);
            }
        }
    }

    /** Reads every waiting datagram of one socket; binding null = listening socket {@code route} (uplink). */
    private void drain(UdpSocket s, int route, RelayFlow.Binding binding) throws IOException {
        for (int budget = 0; budget < 256; budget++) {
            // a rebinding (applied while the model advanced) may have closed this socket
            if (binding != null && binding.flow().binding != binding) return;
            int len = s.receive();
            if (len < 0) return;
            // the wall clock first: a preemption between the two reads makes the wait look shorter, never longer
            long kernel = s.lastKernelTimeNanos();
            long wall = kernel == 0 ? 0 : ModelClock.wallNanos();
            long now = clock.now();
            long waited = Math.max(0, wall - kernel);
            if (kernel != 0) stats.receiveLag.recordValue(waited);
            long arrival = driver.arrivalTime(kernel, now, wall);
            if (kernel != 0) stats.arrivalVsKernel.recordValue(Math.max(0, arrival - (now - waited)));
            stats.datagramsIn++;
            // the rebinding schedule starts with the server's first datagram: a client never moves before it was answered
            if (origin == Long.MIN_VALUE && binding != null) origin = arrival;
            RelayFlow f = binding != null ? binding.flow() : flowFor(route, s.lastSource(), arrival);
            if (f == null) continue;
            f.lastActive = arrival;
            int flowId = binding != null ? binding.id() : f.id();
            int trafficClass = s.lastTrafficClass();
            byte[] bytes = new byte[len];
            java.lang.foreign.MemorySegment.copy(s.data(), java.lang.foreign.ValueLayout.JAVA_BYTE, 0, bytes, 0, len);
            Direction d = binding != null ? Direction.DOWN : Direction.UP;
            int size = len + IpUdpHeaders.overhead(f.route.server());
            driver.advance(arrival);
            if (link.direction(d).packetsInside() >= config.maxInside()) {
                stats.overloadDrops++;
                continue;
            }
            link.direction(d).offer(new Packet(nextId++, flowId, size, ByteBuffer.wrap(bytes), trafficClass), arrival);
            if (binding != null) rebindIfDue(f, arrival);
        }
    }

    /** Applies the rebindings due at model time {@code t} to {@code f}; true if it has a new binding now. */
    private boolean rebindIfDue(RelayFlow f, long t) throws IOException {
        if (!config.rebinding().active() || origin == Long.MIN_VALUE) return false;
        long due = config.rebinding().due(t - origin);
        if (due <= f.rebinds) return false;
        f.rebinds = due;
        RelayFlow.Binding old = f.binding;
        f.binding = bind(f, t);
        poller.remove(old.socket().fd());
        byFd.remove(old.socket().fd());
        old.socket().close();
        rebinds++;
        return true;
    }

    /** A new socket toward the flow's server (a new port; with address rebinding a new 127.x.y.z) and its flow id. */
    private RelayFlow.Binding bind(RelayFlow f, long now) throws IOException {
        InetSocketAddress server = f.route.server();
        InetAddress local;
        if (f.binding != null && config.rebinding().address()) {
            byte[] a = f.binding.local().getAddress().getAddress();
            byte[] b;
            do {
                b = new byte[] {127, (byte) rebindRandom.nextInt(256), (byte) rebindRandom.nextInt(256), (byte) (1 + rebindRandom.nextInt(254))};
            } while (java.util.Arrays.equals(a, b));
            local = InetAddress.getByAddress(b);
        } else {
            local = server.getAddress().isLoopbackAddress() ? server.getAddress()
                    : (server.getAddress() instanceof java.net.Inet4Address ? InetAddress.getByName("0.0.0.0")
                    : InetAddress.getByName("::"));
        }
        UdpSocket s = UdpSocket.bind(new InetSocketAddress(local, 0), "relay socket toward the server");
        InetSocketAddress bound;
        try {
            s.connect(server);
            s.setBuffers(config.bufferBytes());
            s.enableTimestamps();
            s.enableTrafficClass();
            bound = s.localAddress();
        } catch (IOException e) {
            s.close();
            throw e;
        }
        RelayFlow.Binding b = new RelayFlow.Binding(nextFlowId++, f, s, bound);
        if (dc != null) dc.assign(b.id(), f.route.mode());
        byFd.put(s.fd(), b);
        byId.put(b.id(), b);
        poller.add(s.fd());
        if (log != null) {
            log.describeFlow(b.id(), now, "udp " + UdpSocket.format(server) + " " + UdpSocket.format(bound)
                    + " client " + UdpSocket.format(f.client) + (dc != null ? " path=" + f.route.mode().label() : "")
                    + (f.binding != null ? " rebinding of flow " + f.binding.id() : ""));
        }
        return b;
    }

    private RelayFlow flowFor(int route, InetSocketAddress client, long now) throws IOException {
        ClientKey key = new ClientKey(route, client);
        RelayFlow f = byClient.get(key);
        if (f != null) return f;
        RelayRoute r = config.routes().get(route);
        if (byClient.size() >= config.maxFlows()) {
            stats.refusedFlows++;
            return null;
        }
        f = new RelayFlow(r, listeners.get(route), client);
        f.binding = bind(f, now);
        if (origin != Long.MIN_VALUE) f.rebinds = config.rebinding().due(now - origin);
        byClient.put(key, f);
        stats.flows++;
        return f;
    }

    private void deliverDown(Packet p, long t) {
        RelayFlow.Binding b = byId.get(p.flow());
        if (b == null) return;
        RelayFlow f = b.flow();
        try {
            rebindIfDue(f, t);
        } catch (IOException e) {
            stats.sendFailures++;
        }
        if (f.binding != b) {
            // sent to a binding the NAT has forgotten: it never reaches the client
            staleDrops++;
            return;
        }
        send(f.listen, p, f.client, t);
    }

    private void deliverUp(Packet p, long t) {
        RelayFlow.Binding b = byId.get(p.flow());
        if (b == null) return;
        RelayFlow f = b.flow();
        try {
            rebindIfDue(f, t);
        } catch (IOException e) {
            stats.sendFailures++;
            return;
        }
        send(f.binding.socket(), p, null, t);
    }

    private void send(UdpSocket s, Packet p, InetSocketAddress to, long due) {
        try {
            s.setTrafficClass(p.trafficClass());
            if (s.send(p.payload().duplicate(), to)) stats.datagramsOut++;
            else stats.sendFailures++;
        } catch (SysException e) {
            stats.sendFailures++;
        }
        stats.deliveryLateness.recordValue(Math.max(0, clock.now() - due));
    }

    private void tapEvent(EventType type, int direction, Packet p, long time, DropCause cause, int q) {
        boolean down = direction == Direction.DOWN.index();
        if (!((down && type == EventType.TAP) || (!down && type == EventType.DELIVER))) return;
        RelayFlow.Binding b = byId.get(p.flow());
        if (b == null) return;
        if (!down) {
            // an uplink packet leaves through the binding current at its delivery (the NAT rewrites it then)
            try {
                rebindIfDue(b.flow(), time);
            } catch (IOException e) {
                return;
            }
            b = b.flow().binding;
        }
        InetSocketAddress src = down ? b.flow().route.server() : b.local();
        InetSocketAddress dst = down ? b.local() : b.flow().route.server();
        ByteBuffer payload = p.payload().duplicate();
        tap.write(clock.epochNanosOfZero() + time, IpUdpHeaders.build(src, dst, payload, p.trafficClass()), payload);
    }

    /** Rebindings applied (all flows together). */
    public long rebinds() { return rebinds; }

    /** Datagrams the servers sent to bindings the NAT had already replaced (dropped at the client's side). */
    public long staleDrops() { return staleDrops; }

    @Override
    public void close() throws IOException {
        stopping = true;
        loop.awaitExit();
        for (RelayFlow f : byClient.values()) f.binding.socket().close();
        for (UdpSocket l : listeners) l.close();
        poller.close();
        IOException first = null;
        try { if (log != null) log.close(); } catch (IOException e) { first = e; }
        try { if (tap != null) tap.close(); } catch (IOException e) { if (first == null) first = e; }
        if (first != null) throw first;
    }

    /** Closes without keeping the tap and the event log (their partial files are deleted): the warm-up's copy. */
    private void discard() {
        stopping = true;
        loop.awaitExit();
        for (RelayFlow f : byClient.values()) f.binding.socket().close();
        for (UdpSocket l : listeners) l.close();
        poller.close();
        if (log != null) log.discard();
        if (tap != null) tap.discard();
    }

    /**
     * Warms the relay's path up before the real relay {@code config} is built (so before its listening sockets are
     * bound): {@code packets} packets ({@link WarmUp}) through {@link WarmUp#COPIES} fresh copies in turn, each with the same link, seed, routes' modes, socket
     * buffers, spin and memory bound, whose routes listen on ephemeral loopback ports in front of a server socket of the
     * warm-up's own, with a tap and an event log (when {@code config} has them) in a temporary directory that is deleted
     * afterwards ({@link WarmUp#run}, under {@code java.io.tmpdir}). Rebinding is not warmed (an interop-test feature).
     * Nothing of it reaches the real relay's sockets, tap, event log, counters or statistics.
     */
    public static WarmUp.Result warmUp(RelayConfig config, int packets) throws IOException, SpecException {
        return warmUp(config, packets, WarmUp.tmpdir());
    }

    /** {@link #warmUp(RelayConfig, int)} with its temporary directory in {@code tmpParent}. */
    public static WarmUp.Result warmUp(RelayConfig config, int packets, java.nio.file.Path tmpParent)
            throws IOException, SpecException {
        return WarmUp.run(tmpParent, packets, (dir, share, deadline) -> warmUpCopy(config, dir, share, deadline));
    }

    private static WarmUp.Result warmUpCopy(RelayConfig config, java.nio.file.Path dir, int packets, long deadline)
            throws IOException, SpecException {
        boolean v6 = config.server().getAddress() instanceof java.net.Inet6Address;
        InetAddress lo = InetAddress.getByName(v6 ? "::1" : "127.0.0.1");
        RelayWarmUpEnds ends = null;
        UdpRelay copy = null;
        try {
            ends = RelayWarmUpEnds.open(lo, Math.min(config.routes().size(), RelayWarmUpEnds.MAX_FLOWS), config.bufferBytes());
            List<RelayRoute> routes = new ArrayList<>();
            for (int i = 0; i < ends.flows(); i++) {
                routes.add(new RelayRoute(new InetSocketAddress(lo, 0), ends.serverAddress(), config.routes().get(i).mode()));
            }
            copy = new UdpRelay(new RelayConfig(routes, config.link(), config.dc(), config.seed(),
                    config.tap() == null ? null : dir.resolve("tap.pcapng"), config.snaplen(),
                    config.eventLog() == null ? null : dir.resolve("events.bin"), config.bufferBytes(), config.spinNanos(),
                    config.maxFlows(), config.maxInside(), false, Rebinding.NONE));
            for (int i = 0; i < ends.flows(); i++) ends.connect(i, copy.listenAddress(i));
            UdpRelay c = copy;
            WarmUp.Result r = WarmUp.drive(c.driver, c.link, c::pass, ends, packets, deadline);
            c.discard();
            copy = null;
            ends.close();
            ends = null;
            return r;
        } finally {
            if (copy != null) copy.discard();
            if (ends != null) ends.close();
        }
    }

    /** The counters and timing statistics, several lines. */
    public String report() {
        String dcReport = dc == null ? "" : DcReport.format(dc, dcTotals);
        String rebinding = config.rebinding().active() ? String.format("rebinding: %d rebindings, %d datagrams to forgotten "
                + "bindings dropped%n", rebinds, staleDrops) : "";
        return counters.format() + dcReport + rebinding + stats.format();
    }
}
