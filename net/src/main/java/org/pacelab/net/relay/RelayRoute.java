package org.pacelab.net.relay;

import java.net.InetSocketAddress;
import org.pacelab.net.dc.DcFlowMode;

/**
 * One listening address of the relay and the server behind it. Several routes share the link model, so several
 * client/server pairs compete on the same paths (the dual-connectivity fairness setup).
 *
 * @param listen address clients send to
 * @param server the server's address
 * @param mode   on a dual-connectivity link, how this route's flows use the paths (ignored otherwise)
 */
public record RelayRoute(InetSocketAddress listen, InetSocketAddress server, DcFlowMode mode) { }
