package org.pacelab.cli;

import java.net.InetSocketAddress;

import org.pacelab.quic.conn.PreferredAddressConfig;

import picocli.CommandLine.Option;

/**
 * A server's preferred address (RFC 9000 §9.6): a second address it listens on and offers to clients in its
 * preferred_address transport parameter, which clients that support it move to once the handshake is confirmed. The
 * offered address is the bound one unless {@code --advertise-preferred} names another (a NAT's or a relay's route to it).
 */
final class PreferredAddressOptions {
    @Option(names = "--preferred-address", paramLabel = "ADDR:PORT", converter = SocketAddressConverter.class,
            description = {"Also listen on ADDR:PORT and offer it to clients as the preferred address (RFC 9000 §9.6);",
                    "clients that support it move there after the handshake (default: none)."})
    InetSocketAddress preferred;

    @Option(names = "--advertise-preferred", paramLabel = "ADDR:PORT", converter = SocketAddressConverter.class,
            description = {"Offer ADDR:PORT as the preferred address instead of --preferred-address's own (when a NAT or",
                    "a relay forwards it there); needs --preferred-address."})
    InetSocketAddress advertised;

    /** Whether a preferred address is asked for. */
    boolean given() {
        return preferred != null || advertised != null;
    }

    /**
     * The address to offer, checked against {@code listen}; null when none is asked for.
     *
     * @throws IllegalArgumentException with one sentence naming the option, the cause and the valid form
     */
    PreferredAddressConfig offer(InetSocketAddress listen) {
        if (preferred == null) {
            if (advertised != null) {
                throw new IllegalArgumentException("--advertise-preferred needs --preferred-address, the address to listen on "
                        + "(e.g. --preferred-address 192.0.2.1:4434 --advertise-preferred 198.51.100.7:4434).");
            }
            return null;
        }
        if (preferred.equals(listen) || preferred.getPort() != 0 && preferred.getPort() == listen.getPort()
                && (preferred.getAddress().isAnyLocalAddress() || listen.getAddress().isAnyLocalAddress())) {
            throw new IllegalArgumentException("--preferred-address " + format(preferred) + " is the address the server "
                    + "already listens on (--listen " + format(listen) + "); give a second address or port, e.g. "
                    + listen.getAddress().getHostAddress() + ":" + (listen.getPort() + 1) + ".");
        }
        InetSocketAddress offered = advertised != null ? advertised : preferred;
        String option = advertised != null ? "--advertise-preferred" : "--preferred-address";
        if (offered.getAddress().isAnyLocalAddress() || offered.getPort() == 0) {
            throw new IllegalArgumentException(option + " " + format(offered) + " is not an address a client can reach; give "
                    + "a concrete address and port, e.g. 192.0.2.1:4434" + (advertised == null
                    ? " (or keep this one and add --advertise-preferred with the address clients reach it at)." : "."));
        }
        return PreferredAddressConfig.of(offered);
    }

    static String format(InetSocketAddress a) {
        String host = a.getAddress().getHostAddress();
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + a.getPort();
    }
}
