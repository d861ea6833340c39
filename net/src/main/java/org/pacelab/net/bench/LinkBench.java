package org.pacelab.net.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;
import org.pacelab.net.driver.DriverStats;
import org.pacelab.net.link.Direction;
import org.pacelab.net.link.DirectionModel;
import org.pacelab.net.link.Jitter;
import org.pacelab.net.link.LinkDirection;
import org.pacelab.net.link.LinkObserver;
import org.pacelab.net.link.LossModel;
import org.pacelab.net.link.Packet;
import org.pacelab.net.link.QueueLimit;
import org.pacelab.net.link.RandomStreams;
import org.pacelab.net.link.TokenBucketRateLimiter;
import org.pacelab.net.relay.RelayConfig;
import org.pacelab.net.relay.UdpRelay;
import org.pacelab.net.spec.LinkSpecParser;
import org.pacelab.net.spec.SpecException;

/**
 * Benchmarks of the link emulator (docs/benchmarks.md): the model's own speed and exactness in virtual time,
 * and the UDP relay on loopback in real time — achieved rate against the configured one, the delay error at
 * 20 ms, the maximum unshaped throughput and the arrival timestamps against the kernel's. The relay cases send
 * client to server (the uplink carries the shaping) from one thread to a sink on another.
 */
public final class LinkBench {
    private LinkBench() {}

    /** The model alone: 10 s of saturating 1500-byte packets through a token bucket, in virtual time. */
    public static String model(long bps) {
        DirectionModel m = new DirectionModel(0, 38, new LossModel.None(), 0, 0, new TokenBucketRateLimiter(bps, 1540), 0,
                QueueLimit.ofPackets(1000), false, 20_000_000L, new Jitter.None(), false);
        LinkDirection d = new LinkDirection(Direction.DOWN, m, new RandomStreams(1), LinkObserver.NONE);
        long interval = 1500L * 8 * 1_000_000_000L / (2 * bps);
        long[] delivered = new long[1];
        long endNs = 10_000_000_000L;
        long n = 0;
        long wallStart = System.nanoTime();
        for (long t = 0; t < endNs; t += interval) {
            d.advanceTo(t, (p, at) -> { if (at <= endNs + 20_000_000L) delivered[0] += p.size(); });
            d.offer(new Packet(n++, 1, 1500, null), t);
        }
        d.advanceTo(endNs + 20_000_000L, (p, at) -> delivered[0] += p.size());
        long wall = System.nanoTime() - wallStart;
        double achieved = delivered[0] * 8 / 10.0;
        return String.format("model %s: achieved %.6f Mbit/s of %.3f configured (error %+.4f %%); %d packets offered in %.0f ms "
                        + "of CPU (%.1f M packet arrivals/s)%n", fmtRate(bps), achieved / 1e6, bps / 1e6, (achieved / bps - 1) * 100,
                n, wall / 1e6, n / (wall / 1e9) / 1e6);
    }

    private record SinkResult(long packets, long bytes, long firstNs, long lastNs, Histogram owdError) { }

    /** Runs the relay with {@code upSpec} on the client-to-server direction and a sender offering {@code offeredBps}. */
    private static String relay(String name, String upSpec, long offeredBps, int size, double seconds, long targetDelayNs,
                                boolean realtime)
            throws IOException, SpecException, InterruptedException {
        try (DatagramChannel sink = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
             DatagramChannel src = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
            sink.setOption(StandardSocketOptions.SO_RCVBUF, 32 << 20);
            src.setOption(StandardSocketOptions.SO_SNDBUF, 32 << 20);
            RelayConfig cfg = new RelayConfig(new InetSocketAddress("127.0.0.1", 0), (InetSocketAddress) sink.getLocalAddress(),
                    LinkSpecParser.parse("none", "wire=off", upSpec), 1, null, 0, null, 32 << 20, 150_000, 4, 1_000_000, realtime);
            UdpRelay relay = new UdpRelay(cfg);
            Thread loop = Thread.ofPlatform().name("relay").start(() -> { try { relay.run(); } catch (IOException e) { throw new RuntimeException(e); } });
            SinkResult[] result = new SinkResult[1];
            long endAt = System.nanoTime() + (long) (seconds * 1e9) + 500_000_000L;
            Thread receiver = Thread.ofPlatform().name("sink").start(() -> result[0] = receive(sink, endAt, targetDelayNs));
            src.connect(relay.listenAddress());
            ByteBuffer b = ByteBuffer.allocate(size);
            // the sender wakes every millisecond and sends what is due (the link under test smooths the bursts)
            long start = System.nanoTime(), sent = 0;
            long stop = start + (long) (seconds * 1e9);
            while (true) {
                long now = System.nanoTime();
                if (now >= stop) break;
                long due = offeredBps <= 0 ? sent + 64 : (long) ((now - start) / 1e9 * offeredBps / ((size + 28) * 8.0));
                while (sent < due) {
                    b.clear();
                    b.putLong(0, System.nanoTime());
                    src.write(b);
                    sent++;
                }
                if (offeredBps > 0) LockSupport.parkNanos(1_000_000L);
            }
            double sendSeconds = (System.nanoTime() - start) / 1e9;
            receiver.join();
            relay.stop();
            loop.join(5000);
            relay.close();
            SinkResult r = result[0];
            double span = (r.lastNs - r.firstNs) / 1e9;
            double rate = r.packets > 1 ? (r.bytes - (double) r.bytes / r.packets) * 8 / span : 0;
            DriverStats st = relay.stats();
            StringBuilder out = new StringBuilder();
            out.append(String.format("%s: offered %.1f Mbit/s (%d datagrams of %d B payload), received %d, rate at the sink "
                    + "%.3f Mbit/s (IP bytes)%n", name, sent * (size + 28) * 8 / sendSeconds / 1e6, sent, size, r.packets, rate / 1e6));
            if (targetDelayNs > 0) out.append(DriverStats.line("  one-way delay minus " + targetDelayNs / 1_000_000 + " ms at the sink", r.owdError));
            out.append("  ").append(DriverStats.line("relay delivery lateness (delay error)", st.deliveryLateness));
            out.append("  ").append(DriverStats.line("relay arrival time minus kernel timestamp", st.arrivalVsKernel));
            out.append(String.format("  relay counters: %d drops at the queue, %d send failures%n",
                    relay.counters().totalDrops(Direction.UP), st.sendFailures));
            return out.toString();
        }
    }

    private static SinkResult receive(DatagramChannel sink, long endAt, long targetDelayNs) {
        Histogram owd = new Histogram(60_000_000_000L, 3);
        long packets = 0, bytes = 0, first = 0, last = 0;
        ByteBuffer b = ByteBuffer.allocate(65536);
        try (java.nio.channels.Selector sel = java.nio.channels.Selector.open()) {
            sink.configureBlocking(false);
            sink.register(sel, java.nio.channels.SelectionKey.OP_READ);
            while (System.nanoTime() < endAt) {
                b.clear();
                if (sink.receive(b) == null) {
                    sel.select(10);
                    sel.selectedKeys().clear();
                    continue;
                }
                long now = System.nanoTime();
                if (packets == 0) first = now;
                last = now;
                packets++;
                bytes += b.position() + 28;
                if (targetDelayNs > 0) owd.recordValue(Math.max(0, now - b.getLong(0) - targetDelayNs));
            }
        } catch (IOException e) {
            throw new RuntimeException(e);
        }
        return new SinkResult(packets, bytes, first, last, owd);
    }

    public static String relayRate(long bps, double seconds, boolean realtime) throws Exception {
        return relay("relay rate " + fmtRate(bps), "rate=" + fmtRate(bps) + " burst=1540b queue=2000p", bps * 3 / 2, 1372, seconds, 0,
                realtime);
    }

    public static String relayDelay(double seconds, boolean realtime) throws Exception {
        return relay("relay delay 20ms (1000 datagrams/s)", "delay=20ms", 1000L * 1228 * 8, 1200, seconds, 20_000_000L, realtime);
    }

    public static String relayUnshaped(double seconds, boolean realtime) throws Exception {
        return relay("relay unshaped (sender as fast as it can)", "", 0, 1372, seconds, 0, realtime);
    }

    private static String fmtRate(long bps) {
        return bps % 1_000_000_000L == 0 ? bps / 1_000_000_000L + "gbit" : bps / 1_000_000L + "mbit";
    }
}
