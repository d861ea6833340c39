package org.pacelab.quic.tls;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * What a client keeps from a connection to resume the next one (RFC 9001 §4.5, §4.6): the TLS session ticket (as
 * agent15 serializes it, PSK included), the server's transport parameters as it sent them (RFC 9000 §7.4.1: 0-RTT
 * data must respect them), and whether the ticket allows 0-RTT. {@link #encode()} and {@link #decode} give a byte form
 * to keep it in a file between processes.
 */
public record SessionTicket(byte[] tlsTicket, byte[] serverTransportParameters, boolean earlyData) {
    public SessionTicket {
        tlsTicket = tlsTicket.clone();
        serverTransportParameters = serverTransportParameters.clone();
    }

    /** 4-byte lengths before the two byte strings, then one byte for early data. */
    public byte[] encode() {
        ByteBuffer b = ByteBuffer.allocate(4 + tlsTicket.length + 4 + serverTransportParameters.length + 1);
        b.putInt(tlsTicket.length).put(tlsTicket).putInt(serverTransportParameters.length).put(serverTransportParameters)
                .put((byte) (earlyData ? 1 : 0));
        return b.array();
    }

    /** @throws IllegalArgumentException when {@code data} is not a ticket {@link #encode()} wrote */
    public static SessionTicket decode(byte[] data) {
        try {
            ByteBuffer b = ByteBuffer.wrap(data);
            byte[] t = new byte[b.getInt()];
            b.get(t);
            byte[] p = new byte[b.getInt()];
            b.get(p);
            boolean early = b.get() != 0;
            if (b.hasRemaining()) {
                throw new IllegalArgumentException("session ticket has " + b.remaining() + " bytes too many");
            }
            return new SessionTicket(t, p, early);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not a pacelab session ticket: " + e.getMessage(), e);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SessionTicket s && Arrays.equals(s.tlsTicket, tlsTicket)
                && Arrays.equals(s.serverTransportParameters, serverTransportParameters) && s.earlyData == earlyData;
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(tlsTicket) + Arrays.hashCode(serverTransportParameters) + (earlyData ? 1 : 0);
    }

    @Override
    public String toString() {
        return "SessionTicket[" + tlsTicket.length + " bytes" + (earlyData ? ", 0-RTT allowed" : "") + "]";
    }
}
