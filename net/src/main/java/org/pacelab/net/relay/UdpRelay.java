package org.pacelab.net.relay;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
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
 * The unprivileged front-end: a UDP relay between clients and one server that sends every datagram through the
 * link model. Clients talk to {@code listen}; each client 5-tuple gets its own socket toward the server (one
 * flow). Downlink (server to client) datagrams are tapped where they leave the access-link wire model, uplink
 * ones where they reach the server, with synthesized IP/UDP headers carrying the server-side addresses.
 *
 * <p>One thread drives everything: it sleeps in ppoll until shortly before the model's next event (timer slack
 * lowered to 1 us), then spins, so packets leave within microseconds of their model time; datagram arrival times
 * are the kernel's receive timestamps.
 */
public final class UdpRelay implements AutoCloseable {
    private final RelayConfig config;
    private final ModelClock clock = new ModelClock();
    private final UdpSocket listen;
    private final Poller poller = new Poller();
    private final Link link;
    private final LinkCounters counters = new LinkCounters();
    private final DriverStats stats = new DriverStats();
    private final RealTimeDriver driver;
    private final EventLogWriter log;
    private final PcapngWriter tap;
    private final Map<InetSocketAddress, RelayFlow> byClient = new HashMap<>();
    private final Map<Integer, RelayFlow> byFd = new HashMap<>();
    private final Map<Integer, RelayFlow> byId = new HashMap<>();
    private final int grantedBuffer;
    private volatile boolean stopping;
    private volatile boolean stopped;
    private long nextId;

    public UdpRelay(RelayConfig config) throws IOException, SpecException {
        this.config = config;
        UdpSocket l = UdpSocket.bind(config.listen(), "--listen");
        EventLogWriter lg = null;
        PcapngWriter tp = null;
        try {
            grantedBuffer = l.setBuffers(config.bufferBytes());
            l.enableTimestamps();
            poller.add(l.fd());
            lg = config.eventLog() == null ? null : new EventLogWriter(config.eventLog(), clock.epochNanosOfZero(), config.seed());
            tp = config.tap() == null ? null : new PcapngWriter(config.tap(), PcapngWriter.LINKTYPE_RAW, config.snaplen(), "tap");
            LinkObserver obs = counters;
            if (lg != null) obs = LinkObserver.both(obs, lg);
            if (tp != null) obs = LinkObserver.both(obs, this::tapEvent);
            this.link = LinkFactory.build(config.link(), config.seed(), 0, obs);
        } catch (IOException | SpecException | RuntimeException e) {
            l.close();
            if (lg != null) lg.discard();
            if (tp != null) tp.discard();
            throw e;
        }
        this.listen = l;
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

    public InetSocketAddress listenAddress() throws SysException { return listen.localAddress(); }

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
            if (fd == listen.fd()) {
                drain(listen, null);
            } else {
                RelayFlow f = byFd.get(fd);
                if (f != null) drain(f.serverSide, f);
            }
        }
    }

    /** Reads every waiting datagram of one socket; flow null = the listening socket (uplink). */
    private void drain(UdpSocket s, RelayFlow flow) throws IOException {
        for (int budget = 0; budget < 256; budget++) {
            int len = s.receive();
            if (len < 0) return;
            long now = clock.now();
            long kernel = s.lastKernelTimeNanos();
            if (kernel != 0) stats.receiveLag.recordValue(Math.max(0, now - clock.fromEpochNanos(kernel)));
            long arrival = driver.arrivalTime(kernel, now);
            if (kernel != 0) stats.arrivalVsKernel.recordValue(Math.max(0, arrival - clock.fromEpochNanos(kernel)));
            stats.datagramsIn++;
            RelayFlow f = flow != null ? flow : flowFor(s.lastSource(), arrival);
            if (f == null) continue;
            f.lastActive = arrival;
            byte[] bytes = new byte[len];
            java.lang.foreign.MemorySegment.copy(s.data(), java.lang.foreign.ValueLayout.JAVA_BYTE, 0, bytes, 0, len);
            Direction d = flow != null ? Direction.DOWN : Direction.UP;
            int size = len + IpUdpHeaders.overhead(config.server());
            driver.advance(arrival);
            if (link.direction(d).packetsInside() >= config.maxInside()) {
                stats.overloadDrops++;
                continue;
            }
            link.direction(d).offer(new Packet(nextId++, f.id, size, ByteBuffer.wrap(bytes)), arrival);
        }
    }

    private RelayFlow flowFor(InetSocketAddress client, long now) throws IOException {
        RelayFlow f = byClient.get(client);
        if (f != null) return f;
        if (byClient.size() >= config.maxFlows()) {
            stats.refusedFlows++;
            return null;
        }
        InetAddress any = config.server().getAddress().isLoopbackAddress() ? config.server().getAddress()
                : (config.server().getAddress() instanceof java.net.Inet4Address ? InetAddress.getByName("0.0.0.0")
                : InetAddress.getByName("::"));
        UdpSocket s = UdpSocket.bind(new InetSocketAddress(any, 0), "relay socket toward the server");
        try {
            s.connect(config.server());
            s.setBuffers(config.bufferBytes());
            s.enableTimestamps();
        } catch (IOException e) {
            s.close();
            throw e;
        }
        f = new RelayFlow(byClient.size() + 1, client, s, s.localAddress());
        byClient.put(client, f);
        byFd.put(s.fd(), f);
        byId.put(f.id, f);
        poller.add(s.fd());
        stats.flows++;
        if (log != null) {
            log.describeFlow(f.id, now, "udp " + UdpSocket.format(config.server()) + " " + UdpSocket.format(f.serverSideLocal)
                    + " client " + UdpSocket.format(client));
        }
        return f;
    }

    private void deliverDown(Packet p, long t) {
        RelayFlow f = byId.get(p.flow());
        if (f == null) return;
        send(listen, p, f.client, t);
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
        InetSocketAddress src = down ? config.server() : f.serverSideLocal;
        InetSocketAddress dst = down ? f.serverSideLocal : config.server();
        ByteBuffer payload = p.payload().duplicate();
        tap.write(clock.epochNanosOfZero() + time, IpUdpHeaders.build(src, dst, payload), payload);
    }

    @Override
    public void close() throws IOException {
        stopping = true;
        for (RelayFlow f : byClient.values()) f.serverSide.close();
        listen.close();
        poller.close();
        IOException first = null;
        try { if (log != null) log.close(); } catch (IOException e) { first = e; }
        try { if (tap != null) tap.close(); } catch (IOException e) { if (first == null) first = e; }
        if (first != null) throw first;
    }

    /** The counters and timing statistics, several lines. */
    public String report() {
        return counters.format() + stats.format();
    }
}
