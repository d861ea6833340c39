package org.pacelab.quic.conn;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

import org.pacelab.quic.TransportParameters;

/**
 * What a server offers as its preferred address (RFC 9000 §9.6, §18.2): an IPv4 address and port, an IPv6 one, or both.
 * These are the addresses the client is told, which behind a NAT or a relay may differ from the ones the server's socket
 * is bound to; binding is the runtime's business. The connection adds the connection ID of sequence number 1 and its
 * stateless reset token (§5.1.1).
 *
 * @param ipv4 the IPv4 address and port to offer, or null
 * @param ipv6 the IPv6 address and port to offer, or null
 */
public record PreferredAddressConfig(InetSocketAddress ipv4, InetSocketAddress ipv6) {
    private static final byte[] NO_IPV4 = new byte[4];
    private static final byte[] NO_IPV6 = new byte[16];

    public PreferredAddressConfig {
        if (ipv4 == null && ipv6 == null) {
            throw new IllegalArgumentException("a preferred address needs an IPv4 or an IPv6 address");
        }
        if (ipv4 != null && !(ipv4.getAddress() instanceof Inet4Address)) {
            throw new IllegalArgumentException("the IPv4 preferred address " + ipv4 + " is not an IPv4 address");
        }
        if (ipv6 != null && !(ipv6.getAddress() instanceof Inet6Address)) {
            throw new IllegalArgumentException("the IPv6 preferred address " + ipv6 + " is not an IPv6 address");
        }
        for (InetSocketAddress a : new InetSocketAddress[] {ipv4, ipv6}) {
            if (a != null && (a.getPort() == 0 || a.getAddress().isAnyLocalAddress())) {
                throw new IllegalArgumentException("a preferred address needs a concrete address and port, not " + a);
            }
        }
    }

    /** One address, in the family it belongs to. */
    public static PreferredAddressConfig of(InetSocketAddress address) {
        return address.getAddress() instanceof Inet6Address ? new PreferredAddressConfig(null, address)
                : new PreferredAddressConfig(address, null);
    }

    /**
     * The transport parameter (§18.2): a family not offered is all zeros with port 0, as the RFC says a server that
     * offers one family does.
     */
    TransportParameters.PreferredAddress parameter(byte[] connectionId, byte[] statelessResetToken) {
        return new TransportParameters.PreferredAddress(ipv4 == null ? NO_IPV4 : ipv4.getAddress().getAddress(),
                ipv4 == null ? 0 : ipv4.getPort(), ipv6 == null ? NO_IPV6 : ipv6.getAddress().getAddress(),
                ipv6 == null ? 0 : ipv6.getPort(), connectionId, statelessResetToken);
    }

    /**
     * The address of {@code p} in the family a client uses ({@code ipv6}), or null when the server offers none in it
     * (all zeros or port 0; §9.6.1: a client uses the address of the family it can reach).
     */
    static InetSocketAddress choose(TransportParameters.PreferredAddress p, boolean ipv6) {
        byte[] address = ipv6 ? p.ipv6Address() : p.ipv4Address();
        int port = ipv6 ? p.ipv6Port() : p.ipv4Port();
        if (port == 0 || java.util.Arrays.equals(address, ipv6 ? NO_IPV6 : NO_IPV4)) {
            return null;
        }
        try {
            return new InetSocketAddress(InetAddress.getByAddress(address), port);
        } catch (UnknownHostException e) {
            return null; // a byte array of the right length is never unknown
        }
    }
}
