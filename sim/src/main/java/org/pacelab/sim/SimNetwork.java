package org.pacelab.sim;

import java.net.InetSocketAddress;
import java.util.List;

import org.pacelab.net.link.Direction;
import org.pacelab.net.link.Link;
import org.pacelab.net.link.PacketChannel;
import org.pacelab.net.link.Packet;
import org.pacelab.net.link.PacketSink;
import org.pacelab.sim.engine.Actor;
import org.pacelab.sim.host.Host;

/**
 * The link between the server's host and the clients' hosts as an actor: the server's NIC feeds the downlink, every
 * client's NIC the uplink, and each direction delivers into the other end's socket at the model's delivery time. A
 * packet's flow id says which client/server pair it belongs to (flow i + 1 = client i), as the relay's routes do;
 * the uplink delivers to the one server host, or to pair i's own when each pair has one.
 * The link model itself (wire, tap point, loss, queue, rate limiter, delay line; or the dual-connectivity downlink's
 * splitter, two paths and reordering receiver) is the emulator's, unchanged.
 */
final class SimNetwork implements Actor {
    private final Link link;
    private final InetSocketAddress serverAddress;
    private final List<InetSocketAddress> clientAddresses;
    private List<Host> servers;
    private List<Host> clients;
    private final PacketSink toClient;
    private final PacketSink toServer;

    /** @param clientAddresses the clients' addresses, client i's at index i (its flow id is i + 1) */
    SimNetwork(Link link, InetSocketAddress serverAddress, List<InetSocketAddress> clientAddresses) {
        this.link = link;
        this.serverAddress = serverAddress;
        this.clientAddresses = List.copyOf(clientAddresses);
        this.toClient = (p, t) -> clients.get(index(p)).deliver(p.payload(), this.serverAddress, t);
        this.toServer = (p, t) -> {
            int i = index(p);
            servers.get(servers.size() == 1 ? 0 : i).deliver(p.payload(), this.clientAddresses.get(i), t);
        };
    }

    /**
     * @param serverHosts one server host serving every client, or one per client (client i's at index i)
     * @param clientHosts client i's host at index i
     */
    void connect(List<Host> serverHosts, List<Host> clientHosts) {
        if (clientHosts.size() != clientAddresses.size()) {
            throw new IllegalArgumentException(clientHosts.size() + " client hosts for " + clientAddresses.size() + " addresses");
        }
        if (serverHosts.size() != 1 && serverHosts.size() != clientHosts.size()) {
            throw new IllegalArgumentException(serverHosts.size() + " server hosts for " + clientHosts.size()
                    + " clients; valid: one, or one per client");
        }
        this.servers = List.copyOf(serverHosts);
        this.clients = List.copyOf(clientHosts);
    }

    private int index(Packet p) {
        int i = p.flow() - 1;
        if (i < 0 || i >= clientAddresses.size()) {
            throw new IllegalStateException("packet " + p.id() + " has flow id " + p.flow() + ", but the flows are 1 to "
                    + clientAddresses.size());
        }
        return i;
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
