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
import org.pacelab.net.driver.ModelClock;
import org.pacelab.net.driver.RealTimeDriver;
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
    private final Map<Integer, RelayFlow> byFd = new HashMap<>();
    private final Map<Integer, RelayFlow> byId = new HashMap<>();
    private final int grantedBuffer;
    private volatile boolean stopping;
    private volatile boolean stopped;
    private long nextId;

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
                poller.add(l.fd());
                routeByListenFd.put(l.fd(), i);
            }
            lg = config.eventLog() == null ? null : new EventLogWriter(config.eventLog(), clock.epochNanosOfZero(), config.seed());
            tp = config.tap() == null ? null : new PcapngWriter(config.tap(), PcapngWriter.LINKTYPE_RAW, config.snaplen(), "tap");
            LinkObserver obs = counters;
            if (lg != null) obs = LinkObserver.both(obs, lg);
            if (tp != null) obs = LinkObserver.both(obs, this::tapEvent);
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
        String warning = driver.prepareThread(config.realtime());
        if (warning != null) System.err.println("pacelab emulate: " + warning);
        try {
            while (!stopping) {
                // read first: arrivals are stamped with their kernel times before the model moves on to now
                if (driver.await(poller) > 0) receiveReady();
                driver.advanceToNow();
            }
        } finally {
            stopped = true;
        }
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
                RelayFlow f = byFd.get(fd);
                if (f != null) drain(f.serverSide, -1, f);
            }
        }
    }

    /** Reads every waiting datagram of one socket; flow null = listening socket {@code route} (uplink). */
    private void drain(UdpSocket s, int route, RelayFlow flow) throws IOException {
        for (int budget = 0; budget < 256; budget++) {
            int len = s.receive();
            if (len < 0) return;
            long now = clock.now();
            long kernel = s.lastKernelTimeNanos();
            if (kernel != 0) stats.receiveLag.recordValue(Math.max(0, now - clock.fromEpochNanos(kernel)));
            long arrival = driver.arrivalTime(kernel, now);
            if (kernel != 0) stats.arrivalVsKernel.recordValue(Math.max(0, arrival - clock.fromEpochNanos(kernel)));
            stats.datagramsIn++;
            RelayFlow f = flow != null ? flow : flowFor(route, s.lastSource(), arrival);
            if (f == null) continue;
            f.lastActive = arrival;
            byte[] bytes = new byte[len];
            java.lang.foreign.MemorySegment.copy(s.data(), java.lang.foreign.ValueLayout.JAVA_BYTE, 0, bytes, 0, len);
            Direction d = flow != null ? Direction.DOWN : Direction.UP;
            int size = len + IpUdpHeaders.overhead(f.route.server());
            driver.advance(arrival);
            if (link.direction(d).packetsInside() >= config.maxInside()) {
                stats.overloadDrops++;
                continue;
            }
            link.direction(d).offer(new Packet(nextId++, f.id, size, ByteBuffer.wrap(bytes)), arrival);
        }
    }

    private RelayFlow flowFor(int route, InetSocketAddress client, long now) throws IOException {
        ClientKey key = new ClientKey(route, client);
        RelayFlow f = byClient.get(key);
        if (f != null) return f;
        RelayRoute r = config.routes().get(route);
        InetSocketAddress server = r.server();
        if (byClient.size() >= config.maxFlows()) {
            stats.refusedFlows++;
            return null;
        }
        InetAddress any = server.getAddress().isLoopbackAddress() ? server.getAddress()
                : (server.getAddress() instanceof java.net.Inet4Address ? InetAddress.getByName("0.0.0.0")
                : InetAddress.getByName("::"));
        UdpSocket s = UdpSocket.bind(new InetSocketAddress(any, 0), "relay socket toward the server");
        try {
            s.connect(server);
            s.setBuffers(config.bufferBytes());
            s.enableTimestamps();
        } catch (IOException e) {
            s.close();
            throw e;
        }
        f = new RelayFlow(byClient.size() + 1, r, listeners.get(route), client, s, s.localAddress());
        if (dc != null) dc.assign(f.id, r.mode());
        byClient.put(key, f);
        byFd.put(s.fd(), f);
        byId.put(f.id, f);
        poller.add(s.fd());
        stats.flows++;
        if (log != null) {
            log.describeFlow(f.id, now, "udp " + UdpSocket.format(server) + " " + UdpSocket.format(f.serverSideLocal)
                    + " client " + UdpSocket.format(client) + (dc != null ? " path=" + r.mode().label() : ""));
        }
        return f;
    }

    private void deliverDown(Packet p, long t) {
        RelayFlow f = byId.get(p.flow());
        if (f == null) return;
        send(f.listen, p, f.client, t);
    }

    private void deliverUp(Packet p, long t) {
        RelayFlow f = byId.get(p.flow());
        if (f == null) return;
        send(f.serverSide, p, null, t);
    }

    private void send(UdpSocket s, Packet p, InetSocketAddress to, long due) {
        try {
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
        RelayFlow f = byId.get(p.flow());
        if (f == null) return;
        InetSocketAddress src = down ? f.route.server() : f.serverSideLocal;
        InetSocketAddress dst = down ? f.serverSideLocal : f.route.server();
        ByteBuffer payload = p.payload().duplicate();
        tap.write(clock.epochNanosOfZero() + time, IpUdpHeaders.build(src, dst, payload), payload);
    }

    @Override
    public void close() throws IOException {
        stopping = true;
        for (RelayFlow f : byClient.values()) f.serverSide.close();
        for (UdpSocket l : listeners) l.close();
        poller.close();
        IOException first = null;
        try { if (log != null) log.close(); } catch (IOException e) { first = e; }
        try { if (tap != null) tap.close(); } catch (IOException e) { if (first == null) first = e; }
        if (first != null) throw first;
    }

    /** The counters and timing statistics, several lines. */
    public String report() {
        String dcReport = dc == null ? "" : DcReport.format(dc, dcTotals);
        return counters.format() + dcReport + stats.format();
    }
}
