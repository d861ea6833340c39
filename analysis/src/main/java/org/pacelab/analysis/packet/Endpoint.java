package org.pacelab.analysis.packet;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;

/** An IP address and transport port. Compared by value; checked against packets without allocating. */
public final class Endpoint {
    private final byte[] address;
    private final int port;
    private final int hash;

    private Endpoint(byte[] address, int port) {
        this.address = address;
        this.port = port;
        this.hash = Arrays.hashCode(address) * 31 + port;
    }

    static Endpoint of(byte[] raw, int length, int port) {
        return new Endpoint(Arrays.copyOf(raw, length), port);
    }

    public static Endpoint of(InetAddress address, int port) {
        return new Endpoint(address.getAddress(), port);
    }

    public int port() {
        return port;
    }

    public InetAddress address() {
        try {
            return InetAddress.getByAddress(address);
        } catch (UnknownHostException e) {
            throw new IllegalStateException("address of length " + address.length, e);
        }
    }

    /** True when the packet's source is this endpoint. */
    public boolean isSourceOf(DecodedPacket p) {
        return p.srcPort == port && sameAddress(p.src, p.addressLength);
    }

    /** True when the packet's destination is this endpoint. */
    public boolean isDestinationOf(DecodedPacket p) {
        return p.dstPort == port && sameAddress(p.dst, p.addressLength);
    }

    private boolean sameAddress(byte[] raw, int length) {
        return length == address.length && Arrays.equals(address, 0, length, raw, 0, length);
    }

    /** Address text as tcpdump prints it (IPv6 compressed), without port. */
    public String addressText() {
        String s = address().getHostAddress();
        return address.length == 16 ? compressIpv6(s) : s;
    }

    private static String compressIpv6(String full) {
        // InetAddress prints every group; shorten the longest zero run as RFC 5952 §4.2 asks.
        String[] groups = full.split(":");
        int bestStart = -1;
        int bestLen = 0;
        for (int i = 0; i < groups.length; ) {
            if (groups[i].equals("0")) {
                int j = i;
                while (j < groups.length && groups[j].equals("0")) {
                    j++;
                }
                if (j - i > bestLen && j - i >= 2) {
                    bestStart = i;
                    bestLen = j - i;
                }
                i = j;
            } else {
                i++;
            }
        }
        if (bestStart < 0) {
            return full;
        }
        String head = String.join(":", Arrays.copyOfRange(groups, 0, bestStart));
        String tail = String.join(":", Arrays.copyOfRange(groups, bestStart + bestLen, groups.length));
        return head + "::" + tail;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Endpoint e && e.port == port && Arrays.equals(e.address, address);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public String toString() {
        return address.length == 16 ? "[" + addressText() + "]:" + port : addressText() + ":" + port;
    }
}
