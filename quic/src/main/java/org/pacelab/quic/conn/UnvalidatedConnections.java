package org.pacelab.quic.conn;

import java.net.InetAddress;
import java.util.HashMap;
import java.util.Map;

/**
 * How much state a server holds for clients whose address it has not validated yet (RFC 9000 §8.1), per client IP
 * address and in total. Until a client proves it receives at its address (a Handshake packet, or a token from our
 * Retry), every Initial could come from a spoofed address, so the state created for such connections is capped
 * (RFC 9000 §21.1.1.2: a server can use Retry to defer state and processing; §8.1.2): an endpoint over either cap
 * answers with a stateless Retry instead of creating a connection. The per-address cap keeps one host (any number
 * of source ports) from taking the whole budget.
 *
 * @param perAddress at most this many unvalidated connections from one IP address
 * @param total      at most this many unvalidated connections in all
 */
public record UnvalidatedConnections(int perAddress, int total) {
    /** The defaults of {@code pacelab server}: 16 per IP address, 256 in all. */
    public static final UnvalidatedConnections DEFAULT = new UnvalidatedConnections(16, 256);

    public UnvalidatedConnections {
        if (perAddress < 0 || total < 0) {
            throw new IllegalArgumentException("limits must not be negative: perAddress " + perAddress + ", total " + total);
        }
    }

    /** The counts behind the caps; one per endpoint, used on the endpoint's thread. */
    static final class Counter {
        private final UnvalidatedConnections limits;
        private final Map<InetAddress, Integer> byAddress = new HashMap<>();
        private int total;

        Counter(UnvalidatedConnections limits) {
            this.limits = limits;
        }

        /** Whether one more unvalidated connection from {@code address} would exceed a cap. */
        boolean full(InetAddress address) {
            return total >= limits.total || byAddress.getOrDefault(address, 0) >= limits.perAddress;
        }

        void add(InetAddress address) {
            byAddress.merge(address, 1, Integer::sum);
            total++;
        }

        void remove(InetAddress address) {
            byAddress.computeIfPresent(address, (a, n) -> n > 1 ? n - 1 : null);
            total--;
        }

        int total() {
            return total;
        }

        int addresses() {
            return byAddress.size();
        }
    }
}
