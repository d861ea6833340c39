package org.pacelab.net.netns;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.file.Path;
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
    private final int maxInside;
    private volatile boolean stopping;
    private long nextId;

    public TunMiddlebox(NetnsLab.Tuns tuns, LinkSpec spec, long seed, Path tapFile, int snaplen, Path eventLog, long spinNanos,
                        int maxInside) throws IOException, SpecException {
        this.tuns = tuns;
        this.maxInside = maxInside;
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
            this.link = LinkFactory.build(spec, seed, 0, obs);
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
        String warning = driver.prepareThread(realtime);
        if (warning != null) System.err.println("pacelab netns: " + warning);
        while (!stopping) {
            if (driver.await(poller) > 0) {
                drain(tuns.server(), Direction.DOWN);
                drain(tuns.client(), Direction.UP);
            }
            driver.advanceToNow();
        }
    }

    private void drain(TunDevice tun, Direction d) throws SysException {
        for (int budget = 0; budget < 256; budget++) {
            int len = tun.read();
            if (len < 0) return;
            long arrival = driver.arrivalTime(0, clock.now());
            stats.datagramsIn++;
            byte[] bytes = new byte[len];
            MemorySegment.copy(tun.buffer(), ValueLayout.JAVA_BYTE, 0, bytes, 0, len);
            ByteBuffer packet = ByteBuffer.wrap(bytes);
            IpFlowKey key = IpFlowKey.parse(packet, d == Direction.DOWN);
            if (key == null) continue; // not IPv4/IPv6
            int flow = flows.computeIfAbsent(key, k -> {
                int id = flows.size() + 1;
                stats.flows++;
                if (log != null) log.describeFlow(id, arrival, k.describe());
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

    public String report() { return counters.format() + stats.format(); }

    @Override
    public void close() throws IOException {
        poller.close();
        IOException first = null;
        try { if (log != null) log.close(); } catch (IOException e) { first = e; }
        try { if (tap != null) tap.close(); } catch (IOException e) { if (first == null) first = e; }
        if (first != null) throw first;
    }
}
