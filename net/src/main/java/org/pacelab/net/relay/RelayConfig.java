package org.pacelab.net.relay;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import org.pacelab.net.spec.LinkSpec;

/**
 * What the UDP relay runs.
 *
 * @param listen       address clients send to
 * @param server       the server's address
 * @param link         the link between them
 * @param seed         scenario seed
 * @param tap          pcapng capture at the server's side (null: none)
 * @param snaplen      bytes kept per captured packet (0: all)
 * @param eventLog     event log (null: none)
 * @param bufferBytes  UDP socket buffers asked for
 * @param spinNanos    how long before an event the driver stops sleeping and spins
 * @param maxFlows     client 5-tuples served at once
 * @param maxInside    packets the link may hold before the relay drops new arrivals (bounds memory)
 * @param realtime     run the driving thread SCHED_FIFO (root)
 */
public record RelayConfig(InetSocketAddress listen, InetSocketAddress server, LinkSpec link, long seed, Path tap,
                          int snaplen, Path eventLog, int bufferBytes, long spinNanos, int maxFlows, int maxInside,
                          boolean realtime) { }
