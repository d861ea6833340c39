package org.pacelab.net.dc;

import org.pacelab.net.link.Direction;
import org.pacelab.net.link.DirectionModel;
import org.pacelab.net.link.Link;
import org.pacelab.net.link.LinkDirection;
import org.pacelab.net.link.LinkObserver;
import org.pacelab.net.link.RandomStreams;
import org.pacelab.net.link.WireModel;
import org.pacelab.net.spec.DirectionSpec;
import org.pacelab.net.spec.LinkFactory;
import org.pacelab.net.spec.LinkSpec;
import org.pacelab.net.spec.SpecException;

/**
 * Turns a {@link DcSpec} into a {@link Link} whose downlink is a {@link DualConnectivityDownlink} and whose uplink is
 * one {@link LinkDirection}. Used by the relay, the namespace middlebox and the simulator alike. Random streams:
 * {@code dc-a/...} and {@code dc-b/...} for the paths, {@code up/...} for the uplink.
 */
public final class DcFactory {
    private DcFactory() {}

    /**
     * @param spec     the dual-connectivity link
     * @param seed     scenario seed
     * @param start    model time at which traces start
     * @param observer sees every event (path events carry the path index)
     */
    public static Link build(DcSpec spec, long seed, long start, LinkObserver observer) throws SpecException {
        RandomStreams random = new RandomStreams(seed);
        DirectionModel[] models = new DirectionModel[2];
        for (DcPath p : DcPath.values()) models[p.index()] = pathModel(spec, p, start);
        DirectionModel upModel;
        try {
            upModel = LinkFactory.model(new LinkSpec("dc", spec.a(), spec.up()), spec.up(), start);
        } catch (SpecException e) {
            throw new SpecException("uplink: " + e.getMessage());
        }
        WireModel wire = spec.wireBps() > 0 ? new WireModel(spec.wireBps(), spec.wireOverheadBytes()) : null;
        DualConnectivityDownlink down = DualConnectivityDownlink.create(spec.split(), spec.reordering(), wire, observer,
                (p, obs) -> new LinkDirection(Direction.DOWN, p.index(), "dc-" + p.label(), models[p.index()], random, obs));
        return new Link(down, new LinkDirection(Direction.UP, upModel, random, observer));
    }

    /** The resolved stages of one path; BDP sizes use the path's delay plus the uplink's. */
    public static DirectionModel pathModel(DcSpec spec, DcPath p, long start) throws SpecException {
        DirectionSpec d = spec.path(p);
        try {
            return LinkFactory.model(new LinkSpec("dc", d, spec.up()), d, start);
        } catch (SpecException e) {
            throw new SpecException("path " + p.label() + ": " + e.getMessage());
        }
    }
}
