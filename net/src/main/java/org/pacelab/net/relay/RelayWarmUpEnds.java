package org.pacelab.net.relay;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import org.pacelab.net.driver.WarmUp;
import org.pacelab.net.link.Direction;
import org.pacelab.net.sys.SysException;
import org.pacelab.net.sys.UdpSocket;

/**
 * The far ends of the relay's warm-up copy: one client socket per route, connected to the copy's listening address,
 * and one server socket behind every route, which learns each flow's relay-side address from the flow's first
 * datagram (a request) and answers there. All on ephemeral loopback ports.
 */
final class RelayWarmUpEnds implements WarmUp.Ends, AutoCloseable {
    /** Flows driven at most (one per route). */
    static final int MAX_FLOWS = 8;

    private final UdpSocket server;
    private final UdpSocket[] clients;
    private final InetSocketAddress[] flowAddress;
    private int nextClient;

    private RelayWarmUpEnds(UdpSocket server, UdpSocket[] clients) {
        this.server = server;
        this.clients = clients;
        this.flowAddress = new InetSocketAddress[clients.length];
    }

    static RelayWarmUpEnds open(InetAddress loopback, int flows, int bufferBytes) throws SysException {
        UdpSocket server = UdpSocket.bind(new InetSocketAddress(loopback, 0), "the warm-up's server socket");
        UdpSocket[] clients = new UdpSocket[flows];
        try {
            server.setBuffers(bufferBytes);
            for (int i = 0; i < flows; i++) {
                clients[i] = UdpSocket.bind(new InetSocketAddress(loopback, 0), "a warm-up client socket");
                clients[i].setBuffers(bufferBytes);
            }
        } catch (SysException | RuntimeException e) {
            server.close();
            for (UdpSocket c : clients) if (c != null) c.close();
            throw e;
        }
        return new RelayWarmUpEnds(server, clients);
    }

    InetSocketAddress serverAddress() throws SysException { return server.localAddress(); }

    /** Connects flow {@code i}'s client socket to the copy's listening address of route {@code i}. */
    void connect(int i, InetSocketAddress listen) throws SysException { clients[i].connect(listen); }

    @Override
    public int flows() { return clients.length; }

    @Override
    public boolean send(Direction d, int flow, byte[] payload, int length) throws SysException {
        ByteBuffer b = ByteBuffer.wrap(payload, 0, length);
        if (d == Direction.UP) return clients[flow].send(b, null);
        InetSocketAddress to = flowAddress[flow];
        return to != null && server.send(b, to);
    }

    @Override
    public int receive(Direction d, byte[] payload) throws SysException {
        if (d == Direction.UP) {
            int n = server.receive();
            if (n < 0) return -1;
            copy(server.data(), n, payload);
            int flow = n > 1 ? payload[1] : -1;
            if (flow >= 0 && flow < flowAddress.length) flowAddress[flow] = server.lastSource();
            return n;
        }
        for (int k = 0; k < clients.length; k++) {
            UdpSocket c = clients[nextClient];
            nextClient = (nextClient + 1) % clients.length;
            int n = c.receive();
            if (n >= 0) {
                copy(c.data(), n, payload);
                return n;
            }
        }
        return -1;
    }

    private static void copy(MemorySegment from, int n, byte[] to) {
        MemorySegment.copy(from, ValueLayout.JAVA_BYTE, 0, to, 0, Math.min(n, to.length));
    }

    @Override
    public void close() {
        server.close();
        for (UdpSocket c : clients) c.close();
    }
}
