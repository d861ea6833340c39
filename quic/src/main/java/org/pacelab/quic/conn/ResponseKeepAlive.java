package org.pacelab.quic.conn;

import org.pacelab.quic.packet.PacketSpace;
import org.pacelab.quic.recovery.PacketNumberSpace;
import org.pacelab.quic.recovery.Recovery;

/**
 * A client waiting for a response keeps its path alive (RFC 9000 §10.1.2: "An endpoint might need to send
 * ack-eliciting packets to avoid an idle timeout if it is expecting response data but does not have or is unable to
 * send application data"). A downloading client that has acknowledged everything sends nothing until the server's
 * next packet arrives. If its NAT binding changes then (RFC 9000 §9.3), the server's packets go to the forgotten
 * address and are lost, its PTO probes too, and the server learns the new address only from a packet of the client:
 * without one, both wait until the idle timeout (issue 16's rebind-port cells with aioquic's and quic-go's servers).
 *
 * <p>The rule: once the handshake is confirmed, while the client has a request stream the server may still send on
 * and no ack-eliciting packet of its own in flight (otherwise its PTO, RFC 9002 §6.2, already probes), a silence of one
 * PTO (RFC 9002 §6.2.1, with the peer's max_ack_delay) since the last packet received asks for a PING probe. Its
 * acknowledgment (or the data it unblocks) restarts the silence; consecutive probes without an ack-eliciting packet from
 * the server back off (1, 2, 4 … PTOs) and stop after {@link #MAX_PROBES}, so a server that is only slow to answer is
 * not kept from its idle timeout forever. This is the shape of Chromium's "retransmittable on wire" PING
 * ({@code QuicPingManager}: a PING when nothing retransmittable is in flight and a stream is open, backed off) and of
 * the keep-alive intervals quinn ({@code keep_alive_interval}), ngtcp2 ({@code ngtcp2_conn_set_keep_alive_timeout}) and
 * picoquic ({@code picoquic_enable_keep_alive}) let an application set; here it needs no setting because it is tied to
 * an outstanding request and to the PTO.
 */
final class ResponseKeepAlive {
    /** Probes in a row without an ack-eliciting packet from the peer before the rule gives up (1 + 2 + … + 32 PTOs). */
    static final int MAX_PROBES = 6;

    private final boolean isClient;
    private final ConnectionStreams streams;
    private final Recovery recovery;
    private final PacketNumberSpace application;
    private long quietSince;
    private int probesInRow;
    private long probesSent;

    ResponseKeepAlive(boolean isClient, ConnectionStreams streams, Recovery recovery, PacketNumberSpace application,
                      long now) {
        this.isClient = isClient;
        this.streams = streams;
        this.recovery = recovery;
        this.application = application;
        this.quietSince = now;
    }

    /** A packet of the peer was processed: the silence ends; an ack-eliciting one also ends the back-off. */
    void onPacketReceived(long now, boolean ackEliciting) {
        quietSince = now;
        if (ackEliciting) {
            probesInRow = 0;
        }
    }

    /**
     * When a probe is due, or {@link Long#MAX_VALUE}: only for a client whose handshake is {@code confirmed}, with a
     * request stream the peer may still send on and no ack-eliciting 1-RTT packet in flight; one PTO (RFC 9002 §6.2.1:
     * smoothed RTT + max(4 rttvar, granularity) + the peer's max_ack_delay) after the last packet received, doubled for
     * each probe in a row.
     */
    long deadline(boolean confirmed) {
        if (!isClient || !confirmed || probesInRow >= MAX_PROBES
                || recovery.loss().ackElicitingInFlight(PacketSpace.APPLICATION) > 0 || !streams.awaitingPeerData()) {
            return Long.MAX_VALUE;
        }
        long pto = recovery.rtt().ptoBase() + recovery.peerMaxAckDelay();
        return quietSince + (pto << probesInRow);
    }

    /** At a timer: if the deadline passed, asks the application space for one probe (a PING if nothing else goes). */
    void onTimeout(long now, boolean confirmed) {
        if (now >= deadline(confirmed)) {
            probesInRow++;
            probesSent++;
            quietSince = now;
            application.requestProbes(1);
        }
    }

    /** Probes asked for so far (counter {@code keep_alive_probes}). */
    long probesSent() {
        return probesSent;
    }
}
