package org.pacelab.analysis.tcp;

import org.pacelab.analysis.packet.Endpoint;

/**
 * The server's side of one TCP connection: which sequence numbers it has sent, so that a data segment that
 * resends bytes already sent is recognised as a retransmission (RFC 9293 §3.4 sequence space, 32-bit wrap
 * handled by extending numbers relative to the highest sent).
 */
public final class TcpFlow {
    private final Endpoint client;
    private boolean started;
    private long highestEnd;
    private long dataSegments;
    private long retransmissions;
    private long bytes;

    public TcpFlow(Endpoint client) {
        this.client = client;
    }

    /**
     * Records a server segment carrying {@code length} payload bytes at sequence number {@code seq};
     * returns true when it resends bytes sent before.
     */
    public boolean onServerData(long seq, int length) {
        if (length <= 0) {
            return false;
        }
        dataSegments++;
        bytes += length;
        if (!started) {
            started = true;
            highestEnd = seq + length;
            return false;
        }
        long extended = highestEnd + (int) (seq - (highestEnd & 0xffffffffL)); // nearest to highestEnd mod 2^32
        boolean retransmission = extended < highestEnd;
        if (retransmission) {
            retransmissions++;
        }
        highestEnd = Math.max(highestEnd, extended + length);
        return retransmission;
    }

    public Endpoint client() {
        return client;
    }

    public long dataSegments() {
        return dataSegments;
    }

    public long retransmissions() {
        return retransmissions;
    }

    public long bytes() {
        return bytes;
    }
}
