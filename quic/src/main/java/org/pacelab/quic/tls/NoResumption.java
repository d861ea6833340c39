package org.pacelab.quic.tls;

import java.util.List;
import java.util.NoSuchElementException;

import tech.kwik.agent15.TlsConstants;
import tech.kwik.agent15.engine.TlsSession;
import tech.kwik.agent15.engine.TlsSessionRegistry;
import tech.kwik.agent15.engine.impl.TlsState;
import tech.kwik.agent15.extension.ClientHelloPreSharedKeyExtension;
import tech.kwik.agent15.handshake.NewSessionTicketMessage;

/**
 * The server's session registry: pacelab does not resume sessions, so it issues no tickets and accepts no
 * pre-shared key (a client offering one gets a full handshake, RFC 8446 §4.2.11). Unlike agent15's
 * {@code TlsSessionRegistryImpl}, it starts no thread (that one runs a ticket-expiry scheduler per instance,
 * which would be one never-stopped thread per connection) and draws no randomness.
 */
final class NoResumption implements TlsSessionRegistry {
    static final NoResumption INSTANCE = new NoResumption();

    private NoResumption() {}

    @Override
    public NewSessionTicketMessage createNewSessionTicketMessage(byte ticketNumber, TlsConstants.CipherSuite cipher,
                                                                 TlsState state, String applicationProtocol) {
        return null;
    }

    @Override
    public NewSessionTicketMessage createNewSessionTicketMessage(byte ticketNumber, TlsConstants.CipherSuite cipher,
                                                                 TlsState state, String applicationProtocol,
                                                                 Long maxEarlyDataSize, byte[] data) {
        return null;
    }

    @Override
    public Integer selectIdentity(List<ClientHelloPreSharedKeyExtension.PskIdentity> identities,
                                  TlsConstants.CipherSuite cipher) {
        return null;
    }

    @Override
    public TlsSession useSession(ClientHelloPreSharedKeyExtension.PskIdentity identity) {
        return null;
    }

    @Override
    public byte[] peekSessionData(ClientHelloPreSharedKeyExtension.PskIdentity identity) {
        throw new NoSuchElementException("no sessions are kept");
    }

    @Override
    public void shutdown() {
        // nothing runs
    }
}
