package org.pacelab.net.spec;

import java.io.IOException;
import java.nio.file.Path;
import org.pacelab.net.link.Direction;
import org.pacelab.net.link.DirectionModel;
import org.pacelab.net.link.DropList;
import org.pacelab.net.link.Link;
import org.pacelab.net.link.LinkDirection;
import org.pacelab.net.link.LinkObserver;
import org.pacelab.net.link.MahimahiTrace;
import org.pacelab.net.link.QueueLimit;
import org.pacelab.net.link.RandomStreams;
import org.pacelab.net.link.RateLimiter;
import org.pacelab.net.link.SerializingRateLimiter;
import org.pacelab.net.link.TokenBucketRateLimiter;
import org.pacelab.net.link.TraceFormatException;
import org.pacelab.net.link.TraceRateLimiter;

/** Turns a {@link LinkSpec} into a {@link Link}: loads traces, resolves BDP sizes, derives random streams. */
public final class LinkFactory {
    private LinkFactory() {}

    /**
     * @param spec     the link
     * @param seed     scenario seed; every random stream is derived from it
     * @param start    model time at which traces start
     * @param observer sees every event of both directions
     */
    public static Link build(LinkSpec spec, long seed, long start, LinkObserver observer) throws SpecException {
        RandomStreams random = new RandomStreams(seed);
        return new Link(
                new LinkDirection(Direction.DOWN, model(spec, spec.down(), start), random, observer),
                new LinkDirection(Direction.UP, model(spec, spec.up(), start), random, observer));
    }

    /** The resolved stages of one direction. */
    public static DirectionModel model(LinkSpec link, DirectionSpec d, long start) throws SpecException {
        RateLimiter limiter;
        if (d.trace() != null) {
            limiter = new TraceRateLimiter(loadTrace(d.trace()), d.traceRepeat(), start);
        } else if (d.rateBps() > 0) {
            limiter = d.burstBytes() > 0 ? new TokenBucketRateLimiter(d.rateBps(), d.burstBytes())
                    : new SerializingRateLimiter(d.rateBps());
        } else {
            limiter = RateLimiter.UNLIMITED;
        }
        QueueLimit limit = switch (d.queue().kind()) {
            case UNLIMITED -> QueueLimit.UNLIMITED;
            case PACKETS -> QueueLimit.ofPackets((long) d.queue().value());
            case BYTES -> QueueLimit.ofBytes((long) d.queue().value());
            case BDP -> {
                long rtt = link.rttFor(d);
                if (rtt <= 0) throw new SpecException("queue=" + d.queue() + " needs an RTT: set delay= on the "
                        + "directions or rtt=TIME");
                long bytes = (long) Math.ceil(d.queue().value() * limiter.meanBitsPerSecond() / 8.0 * rtt / 1e9);
                yield QueueLimit.ofBytes(Math.max(1, bytes));
            }
        };
        long[] drops = d.drops().stream().mapToLong(Long::longValue).toArray();
        return new DirectionModel(d.wireBps(), d.wireOverheadBytes(), d.loss().create(), d.corrupt().create(), d.duplicate(),
                limiter, d.overheadBytes(), limit, d.shared(), d.delayNs(), d.jitter(), d.reorder(), d.blackhole().create(),
                drops.length == 0 ? DropList.NONE : new DropList(drops));
    }

    private static MahimahiTrace loadTrace(String file) throws SpecException {
        try {
            return MahimahiTrace.read(Path.of(file));
        } catch (TraceFormatException e) {
            throw new SpecException(e.getMessage());
        } catch (IOException e) {
            throw new SpecException("trace file " + file + " cannot be read: " + e.getMessage());
        }
    }
}
