package org.pacelab.quic.tls;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.random.RandomGenerator;

import tech.kwik.agent15.TlsConstants;
import tech.kwik.agent15.engine.TlsSession;
import tech.kwik.agent15.engine.TlsSessionRegistry;
import tech.kwik.agent15.engine.impl.TlsState;
import tech.kwik.agent15.extension.ClientHelloPreSharedKeyExtension;
import tech.kwik.agent15.handshake.NewSessionTicketMessage;

/**
 * A server's session tickets (RFC 8446 §4.6.1, RFC 9001 §4.6): one NewSessionTicket after each handshake, remembered
 * here with the resumption PSK, the cipher suite and the application protocol, so that a client can resume (RFC 8446
 * §2.2) and send 0-RTT data. Every ticket is used at most once — a second ClientHello with the same ticket gets a full
 * handshake, which is also what keeps replayed 0-RTT data from being accepted twice (RFC 8446 §8.1, RFC 9001 §9.2).
 * At most {@code capacity} tickets are kept; the oldest is forgotten first (a server may refuse any ticket). Nothing
 * expires by clock: {@code quic} reads no clock, and a forgotten ticket is simply a full handshake. No thread (agent15's
 * {@code TlsSessionRegistryImpl} starts one per instance). Shared by the connections of one server endpoint.
 */
public final class SessionTickets implements TlsSessionRegistry {
    /** Lifetime announced in tickets, seconds (RFC 8446 §4.6.1 allows up to 7 days). */
    static final int LIFETIME_SECONDS = 24 * 3600;
    private static final int TICKET_BYTES = 16;

    private final RandomGenerator random;
    private final int capacity;
    private final boolean earlyData;
    private final Map<Key, Session> sessions = new LinkedHashMap<>();
    private long issued;
    private long resumed;

    /**
     * @param random    draws ticket identities and age offsets
     * @param capacity  tickets kept at most
     * @param earlyData whether tickets allow 0-RTT data and the server accepts it on resumption (RFC 9001 §4.6.1)
     */
    public SessionTickets(RandomGenerator random, int capacity, boolean earlyData) {
        if (capacity < 1) {
            throw new IllegalArgumentException("a ticket store keeps at least one ticket");
        }
        this.random = random;
        this.capacity = capacity;
        this.earlyData = earlyData;
    }

    /** Whether the tickets allow 0-RTT data (and the server accepts it). */
    public boolean earlyData() {
        return earlyData;
    }

    private record Key(byte[] id) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Arrays.equals(k.id, id);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(id);
        }
    }

    private record Session(byte[] psk, TlsConstants.CipherSuite cipher, String applicationProtocol, byte[] data)
            implements TlsSession {
        @Override
        public byte[] getPsk() {
            return psk;
        }

        @Override
        public String getApplicationLayerProtocol() {
            return applicationProtocol;
        }

        @Override
        public byte[] getData() {
            return data;
        }
    }

    @Override
    public NewSessionTicketMessage createNewSessionTicketMessage(byte ticketNonce, TlsConstants.CipherSuite cipher, TlsState state,
                                                                 String applicationProtocol) {
        return createNewSessionTicketMessage(ticketNonce, cipher, state, applicationProtocol, null, null);
    }

    @Override
    public synchronized NewSessionTicketMessage createNewSessionTicketMessage(byte ticketNonce, TlsConstants.CipherSuite cipher,
                                                                              TlsState state, String applicationProtocol,
                                                                              Long maxEarlyDataSize, byte[] data) {
        byte[] nonce = {ticketNonce};
        byte[] psk = state.computePSK(nonce);
        byte[] id = new byte[TICKET_BYTES];
        random.nextBytes(id);
        long ageAdd = random.nextLong() & 0xffffffffL;
        if (sessions.size() >= capacity) {
            Key oldest = sessions.keySet().iterator().next();
            sessions.remove(oldest);
        }
        sessions.put(new Key(id), new Session(psk, cipher, applicationProtocol, data));
        issued++;
        // RFC 9001 §4.6.1: a ticket that allows 0-RTT in QUIC carries max_early_data_size 0xffffffff
        return earlyData && maxEarlyDataSize != null ? new NewSessionTicketMessage(LIFETIME_SECONDS, ageAdd, nonce, id, 0xffffffffL)
                : new NewSessionTicketMessage(LIFETIME_SECONDS, ageAdd, nonce, id);
    }

    @Override
    public synchronized Integer selectIdentity(List<ClientHelloPreSharedKeyExtension.PskIdentity> identities,
                                               TlsConstants.CipherSuite cipher) {
        for (int i = 0; i < identities.size(); i++) {
            Session s = sessions.get(new Key(identities.get(i).getIdentity()));
            // RFC 8446 §4.2.11: a PSK is bound to the hash of the suite it was made with; we require the same suite
            if (s != null && s.cipher() == cipher) {
                return i;
            }
        }
        return null;
    }

    @Override
    public synchronized TlsSession useSession(ClientHelloPreSharedKeyExtension.PskIdentity identity) {
        Session s = sessions.remove(new Key(identity.getIdentity()));
        if (s != null) {
            resumed++;
        }
        return s;
    }

    @Override
    public synchronized byte[] peekSessionData(ClientHelloPreSharedKeyExtension.PskIdentity identity) {
        Session s = sessions.get(new Key(identity.getIdentity()));
        if (s == null) {
            throw new NoSuchElementException("no session for this ticket");
        }
        return s.data();
    }

    @Override
    public synchronized void shutdown() {
        sessions.clear();
    }

    /** Tickets issued so far. */
    public synchronized long issued() {
        return issued;
    }

    /** Handshakes that resumed with one of these tickets. */
    public synchronized long resumed() {
        return resumed;
    }

    /** Tickets currently kept. */
    public synchronized int size() {
        return sessions.size();
    }
}
