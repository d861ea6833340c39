package org.pacelab.quic.conn;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.random.RandomGenerator;

import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

import org.pacelab.quic.crypto.Hkdf;

/**
 * Address-validation tokens carried by Retry packets (RFC 9000 §8.1.2): the client's address, the original
 * Destination Connection ID and the issue time, sealed with AES-GCM under a key only this server knows and
 * bound to the Retry's Source Connection ID, so the token is only valid from that address for that
 * connection attempt and for a limited time.
 */
public final class RetryTokens {
    private static final int NONCE = 12;
    private final SecretKeySpec key;
    private final RandomGenerator random;
    private final long lifetime;

    /** Contents of a valid token. */
    public record Validated(byte[] originalDcid) {}

    /**
     * @param staticKey endpoint secret (at least 32 bytes)
     * @param lifetime  how long a token stays valid, ns
     */
    public RetryTokens(byte[] staticKey, RandomGenerator random, long lifetime) {
        byte[] k = Hkdf.expandLabel("SHA-256", Hkdf.extract("SHA-256", new byte[32], staticKey), "pacelab retry", new byte[0], 16);
        this.key = new SecretKeySpec(k, "AES");
        this.random = random;
        this.lifetime = lifetime;
    }

    /** Issues a token for a client at {@code address} whose first Initial had {@code originalDcid}. */
    public byte[] issue(InetSocketAddress address, byte[] originalDcid, byte[] retryScid, long now) {
        byte[] addr = address.getAddress().getAddress();
        ByteBuffer plain = ByteBuffer.allocate(8 + 2 + 1 + addr.length + 1 + originalDcid.length);
        plain.putLong(now).putShort((short) address.getPort()).put((byte) addr.length).put(addr)
                .put((byte) originalDcid.length).put(originalDcid);
        byte[] nonce = new byte[NONCE];
        random.nextBytes(nonce);
        try {
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(128, nonce));
            c.updateAAD(retryScid);
            byte[] sealed = c.doFinal(plain.array());
            byte[] token = Arrays.copyOf(nonce, NONCE + sealed.length);
            System.arraycopy(sealed, 0, token, NONCE, sealed.length);
            return token;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM unavailable", e);
        }
    }

    /**
     * Checks a token from a client's Initial sent to {@code dcid} (which must be the Retry's Source Connection
     * ID); returns its contents, or null when it is forged, expired or from another address.
     */
    public Validated validate(byte[] token, InetSocketAddress from, byte[] dcid, long now) {
        if (token.length <= NONCE + 16) {
            return null;
        }
        try {
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(128, token, 0, NONCE));
            c.updateAAD(dcid);
            ByteBuffer plain = ByteBuffer.wrap(c.doFinal(token, NONCE, token.length - NONCE));
            long issued = plain.getLong();
            int port = plain.getShort() & 0xffff;
            byte[] addr = new byte[plain.get() & 0xff];
            plain.get(addr);
            byte[] odcid = new byte[plain.get() & 0xff];
            plain.get(odcid);
            if (now - issued > lifetime || now < issued || port != from.getPort()
                    || !InetAddress.getByAddress(addr).equals(from.getAddress())) {
                return null;
            }
            return new Validated(odcid);
        } catch (GeneralSecurityException | java.net.UnknownHostException | java.nio.BufferUnderflowException e) {
            return null;
        }
    }

    /**
     * Whether {@code token} was sealed by this server for a Retry whose Source Connection ID is {@code dcid}, valid or
     * not (expired, or presented from another address): such a client has taken our Retry and will not take another
     * (RFC 9000 §17.2.5.2), so the server must answer it with INVALID_TOKEN rather than a second Retry (§8.1.3).
     */
    public boolean issuedHere(byte[] token, byte[] dcid) {
        if (token.length <= NONCE + 16) {
            return false;
        }
        try {
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(128, token, 0, NONCE));
            c.updateAAD(dcid);
            c.doFinal(token, NONCE, token.length - NONCE);
            return true;
        } catch (GeneralSecurityException e) {
            return false;
        }
    }
}
