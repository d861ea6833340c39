package org.pacelab.sim;

import java.net.InetSocketAddress;

import org.pacelab.net.link.Direction;
import org.pacelab.net.link.Link;
import org.pacelab.net.link.PacketChannel;
import org.pacelab.net.link.Packet;
import org.pacelab.net.link.PacketSink;
import org.pacelab.sim.engine.Actor;
import org.pacelab.sim.host.Host;

/**
 * The link between the two hosts as an actor: the server's NIC feeds the downlink, the client's the uplink, and
 * each direction delivers into the other host's socket at the model's delivery time. The link model itself (wire,
 * tap point, loss, queue, rate limiter, delay line) is the emulator's, unchanged.
 */
final class SimNetwork implements Actor {
    private final Link link;
    private final InetSocketAddress serverAddress;
    private final InetSocketAddress clientAddress;
    private Host server;
    private Host client;
    private final PacketSink toClient;
    private final PacketSink toServer;

    SimNetwork(Link link, InetSocketAddress serverAddress, InetSocketAddress clientAddress) {
        this.link = link;
        this.serverAddress = serverAddress;
        this.clientAddress = clientAddress;
        this.toClient = (p, t) -> client.deliver(p.payload(), this.serverAddress, t);
        this.toServer = (p, t) -> server.deliver(p.payload(), this.clientAddress, t);
    }

    void connect(Host serverHost, Host clientHost) {
        this.server = serverHost;
        this.client = clientHost;
    }

    /** A NIC puts {@code packet} on the link at {@code time}. */
    void transmit(Direction direction, Packet packet, long time) {
        PacketChannel d = link.direction(direction);
        d.advanceTo(time, direction == Direction.DOWN ? toClient : toServer);
        d.offer(packet, time);
    }

    /** Whether nothing is inside the link. */
    boolean idle() {
        return link.nextEventTime() == Long.MAX_VALUE;
    }

    @Override
    public long nextEventTime() {
        return link.nextEventTime();
    }

    @Override
    public void fire(long now) {
        link.down().advanceTo(now, toClient);
        link.up().advanceTo(now, toServer);
    }

    @Override
    public String toString() {
        return "link";
    }
}
