package org.pacelab.net.netns;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.pacelab.net.driver.WarmUp;
import org.pacelab.net.link.Direction;
import org.pacelab.net.sys.SysException;
import org.pacelab.net.sys.TunDevice;

/**
 * The far ends of the middlebox's warm-up copy: the other ends of its two socket pairs, which write and read IPv4/TCP
 * packets between the lab's server and client addresses as the namespaces would (20-byte IP and TCP headers before
 * the warm-up's payload; nothing checks their checksums). One flow per server port.
 */
final class TunWarmUpEnds implements WarmUp.Ends {
    static final int HEADERS = 40;
    private static final byte[] SERVER = ipv4(NetnsLab.SERVER_V4), CLIENT = ipv4(NetnsLab.CLIENT_V4);
    private static final int CLIENT_PORT = 40000;
    /** The runner's server port in netns mode. */
    private static final int DEFAULT_SERVER_PORT = 4433;

    private final TunDevice server, client;
    private final int[] serverPorts;
    private final byte[] packet = new byte[TunDevice.MAX_PACKET];

    /** The lab's address as bytes (a literal, so no lookup happens). */
    private static byte[] ipv4(String literal) {
        try {
            return java.net.InetAddress.getByName(literal).getAddress();
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException("not an IPv4 literal: " + literal, e);
        }
    }

    TunWarmUpEnds(TunDevice serverSide, TunDevice clientSide, int[] serverPorts) {
        this.server = serverSide;
        this.client = clientSide;
        this.serverPorts = serverPorts;
    }

    /**
     * The server ports the warm-up's flows use: every port with a mode of its own (dual connectivity) and one that
     * has none (the default split, or the single-path link), at most 8.
     */
    static int[] ports(Set<Integer> withModes) {
        List<Integer> ports = new ArrayList<>(new TreeSet<>(withModes));
        int free = DEFAULT_SERVER_PORT;
        while (withModes.contains(free)) free++;
        ports.addFirst(free);
        return ports.stream().limit(8).mapToInt(Integer::intValue).toArray();
    }

    @Override
    public int flows() { return serverPorts.length; }

    @Override
    public boolean send(Direction d, int flow, byte[] payload, int length) throws SysException {
        boolean down = d == Direction.DOWN;
        int total = HEADERS + length;
        ByteBuffer p = ByteBuffer.wrap(packet, 0, total);
        p.put(0, (byte) 0x45).putShort(2, (short) total).put(8, (byte) 64).put(9, (byte) 6)
                .put(12, down ? SERVER : CLIENT).put(16, down ? CLIENT : SERVER);
        int sport = down ? serverPorts[flow] : CLIENT_PORT + flow, dport = down ? CLIENT_PORT + flow : serverPorts[flow];
        p.putShort(20, (short) sport).putShort(22, (short) dport).put(32, (byte) 0x50).put(33, (byte) 0x10);
        System.arraycopy(payload, 0, packet, HEADERS, length);
        return (down ? server : client).write(p);
    }

    @Override
    public int receive(Direction d, byte[] payload) throws SysException {
        TunDevice t = d == Direction.DOWN ? client : server;
        int n = t.read();
        if (n < 0) return -1;
        if (n < HEADERS) return 0;
        MemorySegment.copy(t.buffer(), ValueLayout.JAVA_BYTE, HEADERS, payload, 0, Math.min(n - HEADERS, payload.length));
        return n - HEADERS;
    }
}
