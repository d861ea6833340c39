package org.pacelab.quic.crypto;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.pacelab.quic.wire.Bytes;

/**
 * The Retry Integrity Tag (RFC 9001 §5.8; QUIC v2: RFC 9369 §3.3.3, another key and nonce): AES-128-GCM with a
 * fixed key and nonce over an empty plaintext, with the Retry Pseudo-Packet (ODCID length, ODCID, Retry packet
 * without tag) as associated data. Retry packets are rare, so a fresh Cipher is used per call (thread-safe). The
 * methods without a version are QUIC v1's.
 */
public final class RetryIntegrity {
    public static final int TAG_LENGTH = 16;

    private RetryIntegrity() {
    }

    /**
     * Computes the tag for the Retry packet bytes from the buffer's position to its limit (the buffer is
     * not moved).
     */
    public static byte[] tag(byte[] originalDcid, ByteBuffer retryPacketWithoutTag) {
        return tag(VersionProtection.V1, originalDcid, retryPacketWithoutTag);
    }

    /** The tag with the key and nonce of {@code version}. */
    public static byte[] tag(VersionProtection version, byte[] originalDcid, ByteBuffer retryPacketWithoutTag) {
        try {
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(version.retryKey(), "AES"), new GCMParameterSpec(128, version.retryNonce()));
            c.updateAAD(new byte[] {(byte) originalDcid.length});
            c.updateAAD(originalDcid);
            c.updateAAD(retryPacketWithoutTag.duplicate());
            return c.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Retry integrity tag computation failed", e);
        }
    }

    /** Whether the last 16 bytes of {@code retryPacket} are its valid integrity tag for {@code originalDcid}. */
    public static boolean verify(byte[] originalDcid, byte[] retryPacket) {
        return verify(VersionProtection.V1, originalDcid, retryPacket);
    }

    /** {@link #verify(byte[], byte[])} for {@code version}. */
    public static boolean verify(VersionProtection version, byte[] originalDcid, byte[] retryPacket) {
        if (retryPacket.length < TAG_LENGTH + 7 || originalDcid.length > 255) {
            return false;
        }
        int body = retryPacket.length - TAG_LENGTH;
        byte[] expected = tag(version, originalDcid, ByteBuffer.wrap(retryPacket, 0, body));
        return Bytes.constantTimeEquals(expected, 0, retryPacket, body, TAG_LENGTH);
    }
}
