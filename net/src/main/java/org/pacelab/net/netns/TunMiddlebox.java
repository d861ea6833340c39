package org.pacelab.net.netns;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.pacelab.net.dc.DcFactory;
import org.pacelab.net.dc.DcFlowMode;
import org.pacelab.net.dc.DcReport;
import org.pacelab.net.dc.DcSpec;
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
import org.pacelab.net.pcap.PcapngWriter;
import org.pacelab.net.spec.LinkFactory;
import org.pacelab.net.spec.LinkSpec;
import org.pacelab.net.spec.SpecException;
import org.pacelab.net.sys.Poller;
import org.pacelab.net.sys.SysException;
import org.pacelab.net.sys.TunDevice;

/**
 * The namespace front-end: reads IP packets the server namespace sends into its TUN device, runs them through
 * the downlink model and writes them into the client namespace's TUN device (and the reverse for the uplink).
 * Flows are 5-tuples. The tap records raw IP packets (downlink where they leave the wire model, uplink where
 * they reach the server). TUN reads carry no kernel timestamp, so arrivals are stamped when read.
 */
public final class TunMiddlebox implements AutoCloseable {
    private final NetnsLab.Tuns tuns;
    private final ModelClock clock = new ModelClock();
    private final Poller poller = new Poller();
    private final Link link;
    private final LinkCounters counters = new LinkCounters();
    private final DriverStats stats = new DriverStats();
    private final EventLogWriter log;
    private final PcapngWriter tap;
    private final RealTimeDriver driver;
    private final Map<IpFlowKey, Integer> flows = new HashMap<>();
    private final DualConnectivityDownlink dc;
    private final DcTimeline dcTotals;
    private final Map<Integer, DcFlowMode> serverPortModes;
    private final int maxInside;
    private volatile boolean stopping;
    private final LoopOccupancy loop = new LoopOccupancy();
    private long nextId;

    public TunMiddlebox(NetnsLab.Tuns tuns, LinkSpec spec, long seed, Path tapFile, int snaplen, Path eventLog, long spinNanos,
                        int maxInside) throws IOException, SpecException {
        this(tuns, spec, null, Map.of(), seed, tapFile, snaplen, eventLog, spinNanos, maxInside);
    }

    /**
     * A middlebox over a single-path link ({@code spec}) or a dual-connectivity link ({@code dc}; {@code spec} null).
     *
     * @param serverPortModes on a dual-connectivity link, how flows whose server-side port is the key use the paths;
     *                        other flows are split as {@code dc} says
     */
    public TunMiddlebox(NetnsLab.Tuns tuns, LinkSpec spec, DcSpec dc, Map<Integer, DcFlowMode> serverPortModes, long seed,
                        Path tapFile, int snaplen, Path eventLog, long spinNanos, int maxInside)
            throws IOException, SpecException {
        if ((spec == null) == (dc == null)) throw new IllegalArgumentException("give either a link or a dual-connectivity link");
        this.tuns = tuns;
        this.maxInside = maxInside;
        this.serverPortModes = Map.copyOf(serverPortModes);
        EventLogWriter lg = null;
        PcapngWriter tp = null;
        try {
            lg = eventLog == null ? null : new EventLogWriter(eventLog, clock.epochNanosOfZero(), seed);
            tp = tapFile == null ? null : new PcapngWriter(tapFile, PcapngWriter.LINKTYPE_RAW, snaplen, "tap");
        } catch (IOException e) {
            if (lg != null) lg.discard();
            throw e;
        }
        this.log = lg;
        this.tap = tp;
        LinkObserver obs = counters;
        if (log != null) obs = LinkObserver.both(obs, log);
        if (tap != null) obs = LinkObserver.both(obs, this::tapEvent);
        try {
            if (dc != null) {
                dcTotals = new DcTimeline(1_000_000_000L);
                this.link = DcFactory.build(dc, seed, 0, LinkObserver.both(obs, dcTotals));
                this.dc = (DualConnectivityDownlink) link.down();
            } else {
                dcTotals = null;
                this.link = LinkFactory.build(spec, seed, 0, obs);
                this.dc = null;
            }
        } catch (SpecException | RuntimeException e) {
            if (lg != null) lg.discard();
            if (tp != null) tp.discard();
            throw e;
        }
        this.driver = new RealTimeDriver(clock, link, (p, t) -> write(tuns.client(), p, t), (p, t) -> write(tuns.server(), p, t),
                spinNanos, this::flush);
        poller.add(tuns.server().fd());
        poller.add(tuns.client().fd());
    }

    public void stop() { stopping = true; }

    public LinkCounters counters() { return counters; }

    public DriverStats stats() { return stats; }

    public void run(boolean realtime) throws IOException {
        loop.enter();
        try {
            String warning = driver.prepareThread(realtime);
            if (warning != null) System.err.println("pacelab netns: " + warning);
            while (!stopping) pass();
        } finally {
            loop.leave();
        }
    }

    /** One pass of the loop; the warm-up runs the same passes over its copy. */
    private void pass() throws SysException {
        if (driver.await(poller) > 0) {
            drain(tuns.server(), Direction.DOWN);
            drain(tuns.client(), Direction.UP);
        }
        driver.advanceToNow();
    }

    private void drain(TunDevice tun, Direction d) throws SysException {
        for (int budget = 0; budget < 256; budget++) {
            int len = tun.read();
            if (len < 0) return;
            long arrival = driver.arrivalTime(0, clock.now(), 0);
            stats.datagramsIn++;
            byte[] bytes = new byte[len];
            MemorySegment.copy(tun.buffer(), ValueLayout.JAVA_BYTE, 0, bytes, 0, len);
            ByteBuffer packet = ByteBuffer.wrap(bytes);
            IpFlowKey key = IpFlowKey.parse(packet, d == Direction.DOWN);
            if (key == null) continue; // not IPv4/IPv6
            int flow = flows.computeIfAbsent(key, k -> {
                int id = flows.size() + 1;
                stats.flows++;
                DcFlowMode mode = this.serverPortModes.getOrDefault(k.serverPort(), DcFlowMode.DUAL);
                if (dc != null) dc.assign(id, mode);
                if (log != null) log.describeFlow(id, arrival, k.describe() + (dc != null ? " path=" + mode.label() : ""));
                return id;
            });
            driver.advance(arrival);
            if (link.direction(d).packetsInside() >= maxInside) {
                stats.overloadDrops++;
                continue;
            }
            link.direction(d).offer(new Packet(nextId++, flow, len, packet), arrival);
        }
    }

    private void write(TunDevice tun, Packet p, long due) {
        try {
            if (tun.write(p.payload().duplicate())) stats.datagramsOut++;
            else stats.sendFailures++;
        } catch (SysException e) {
            stats.sendFailures++;
        }
        stats.deliveryLateness.recordValue(Math.max(0, clock.now() - due));
    }

    private void tapEvent(EventType type, int direction, Packet p, long time, DropCause cause, int q) {
        boolean down = direction == Direction.DOWN.index();
        if ((down && type == EventType.TAP) || (!down && type == EventType.DELIVER)) {
            tap.write(clock.epochNanosOfZero() + time, new byte[0], p.payload().duplicate());
        }
    }

    private void flush() {
        if (log != null) log.flush();
        if (tap != null) tap.flush();
    }

    public String report() {
        return counters.format() + (dc == null ? "" : DcReport.format(dc, dcTotals)) + stats.format();
    }

    /** Closes without keeping the tap and the event log (their partial files are deleted): the warm-up's copy. */
    private void discard() {
        stopping = true;
        loop.awaitExit();
        poller.close();
        if (log != null) log.discard();
        if (tap != null) tap.discard();
    }

    /**
     * Warms the middlebox's path up before the real one runs (call it before {@code NetnsLab.up()}: no namespace or TUN
     * device exists yet): {@code packets} packets ({@link WarmUp}) of TCP-like IPv4 flows through {@link WarmUp#COPIES} fresh copies in turn, each with the same
     * link (or dual-connectivity link and port modes), seed, spin and memory bound, whose two "TUN devices" are socket
     * pairs ({@link TunDevice#socketPair}) — the same read and write calls on descriptors of the warm-up's own — with a
     * tap and an event log (when {@code tap}/{@code eventLog}) in a temporary directory that is deleted afterwards
     * ({@link WarmUp#run}, under {@code java.io.tmpdir}). Nothing of it reaches the namespaces, the real tap, event log,
     * counters or statistics.
     */
    public static WarmUp.Result warmUp(LinkSpec spec, DcSpec dc, Map<Integer, DcFlowMode> serverPortModes, long seed, boolean tap,
                                       int snaplen, boolean eventLog, long spinNanos, int maxInside, int packets)
            throws IOException, SpecException {
        return warmUp(spec, dc, serverPortModes, seed, tap, snaplen, eventLog, spinNanos, maxInside, packets, WarmUp.tmpdir());
    }

    /** {@link #warmUp(LinkSpec, DcSpec, Map, long, boolean, int, boolean, long, int, int)} with its temporary directory in {@code tmpParent}. */
    public static WarmUp.Result warmUp(LinkSpec spec, DcSpec dc, Map<Integer, DcFlowMode> serverPortModes, long seed, boolean tap,
                                       int snaplen, boolean eventLog, long spinNanos, int maxInside, int packets, Path tmpParent)
            throws IOException, SpecException {
        return WarmUp.run(tmpParent, packets, (dir, share, deadline) -> warmUpCopy(spec, dc, serverPortModes, seed, tap, snaplen,
                eventLog, spinNanos, maxInside, dir, share, deadline));
    }

    private static WarmUp.Result warmUpCopy(LinkSpec spec, DcSpec dc, Map<Integer, DcFlowMode> serverPortModes, long seed,
                                            boolean tap, int snaplen, boolean eventLog, long spinNanos, int maxInside,
                                            Path dir, int packets, long deadline) throws IOException, SpecException {
        TunDevice[] server = null, client = null;
        TunMiddlebox copy = null;
        try {
            server = TunDevice.socketPair("warm-up server side");
            client = TunDevice.socketPair("warm-up client side");
            copy = new TunMiddlebox(new NetnsLab.Tuns(server[0], client[0]), spec, dc, serverPortModes, seed,
                    tap ? dir.resolve("tap.pcapng") : null, snaplen, eventLog ? dir.resolve("events.bin") : null, spinNanos,
                    maxInside);
            TunMiddlebox c = copy;
            WarmUp.Result r = WarmUp.drive(c.driver, c.link, c::pass, new TunWarmUpEnds(server[1], client[1],
                    TunWarmUpEnds.ports(serverPortModes.keySet())), packets, deadline);
            c.discard();
            copy = null;
            return r;
        } finally {
            if (copy != null) copy.discard();
            for (TunDevice[] pair : new TunDevice[][] {server, client}) {
                if (pair != null) for (TunDevice t : pair) t.close();
            }
        }
    }

    @Override
    public void close() throws IOException {
        stopping = true;
        loop.awaitExit();
        poller.close();
        IOException first = null;
        try { if (log != null) log.close(); } catch (IOException e) { first = e; }
        try { if (tap != null) tap.close(); } catch (IOException e) { if (first == null) first = e; }
        if (first != null) throw first;
    }
}
