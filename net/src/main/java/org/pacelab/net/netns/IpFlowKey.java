package org.pacelab.net.netns;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;

/**
 * The 5-tuple of a raw IPv4/IPv6 packet, normalised so both directions of a conversation give the same key
 * (the server-namespace side first). Other protocols are keyed by protocol and addresses only.
 */
record IpFlowKey(int protocol, InetAddress serverAddr, int serverPort, InetAddress clientAddr, int clientPort) {

    /** Parses a packet read in direction down (server to client: source is the server) or up; null if not IP. */
    static IpFlowKey parse(ByteBuffer p, boolean down) {
        if (p.remaining() < 20) return null;
        int v = (p.get(p.position()) & 0xf0) >> 4;
        int base = p.position();
        int proto, l4;
        byte[] src, dst;
        if (v == 4) {
            int ihl = (p.get(base) & 0x0f) * 4;
            proto = p.get(base + 9) & 0xff;
            src = new byte[4];
            dst = new byte[4];
            p.get(base + 12, src);
            p.get(base + 16, dst);
            l4 = base + ihl;
        } else if (v == 6 && p.remaining() >= 40) {
            proto = p.get(base + 6) & 0xff;
            src = new byte[16];
            dst = new byte[16];
            p.get(base + 8, src);
            p.get(base + 24, dst);
            l4 = base + 40;
        } else {
            return null;
        }
        int sport = 0, dport = 0;
        if ((proto == 6 || proto == 17) && p.limit() >= l4 + 4) {
            sport = p.getShort(l4) & 0xffff;
            dport = p.getShort(l4 + 2) & 0xffff;
        }
        try {
            InetAddress s = InetAddress.getByAddress(src), d = InetAddress.getByAddress(dst);
            return down ? new IpFlowKey(proto, s, sport, d, dport) : new IpFlowKey(proto, d, dport, s, sport);
        } catch (UnknownHostException e) {
            return null;
        }
    }

    String describe() {
        String name = protocol == 6 ? "tcp" : protocol == 17 ? "udp" : protocol == 1 ? "icmp" : protocol == 58 ? "icmpv6" : "ip" + protocol;
        return name + " " + serverAddr.getHostAddress() + ":" + serverPort + " " + clientAddr.getHostAddress() + ":" + clientPort;
    }
}
