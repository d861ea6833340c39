package org.pacelab.quic.conn;

import java.security.GeneralSecurityException;
import java.util.Arrays;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Derives the stateless reset token of a connection ID from a static key (RFC 9000 §10.3.2), so an endpoint
 * that lost a connection's state can still produce a valid reset for a packet addressed to it.
 */
public final class StatelessResetTokens {
    private final SecretKeySpec key;

    /** @param staticKey at least 32 random bytes, kept for the endpoint's lifetime */
    public StatelessResetTokens(byte[] staticKey) {
        this.key = new SecretKeySpec(staticKey.clone(), "HmacSHA256");
    }

    public byte[] tokenFor(byte[] connectionId) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            return Arrays.copyOf(mac.doFinal(connectionId), 16);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }
}
