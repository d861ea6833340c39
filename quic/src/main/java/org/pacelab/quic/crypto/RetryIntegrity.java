package org.pacelab.quic.crypto;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.pacelab.quic.wire.Bytes;

/**
 * The Retry Integrity Tag of QUIC v1 (RFC 9001 §5.8): AES-128-GCM with a fixed key and nonce over an
 * empty plaintext, with the Retry Pseudo-Packet (ODCID length, ODCID, Retry packet without tag) as
 * associated data. Retry packets are rare, so a fresh Cipher is used per call (thread-safe).
 */
public final class RetryIntegrity {
    private static final byte[] KEY_V1 = Bytes.fromHex("be0c690b9f66575a1d766b54e368c84e");
    private static final byte[] NONCE_V1 = Bytes.fromHex("461599d35d632bf2239825bb");
    public static final int TAG_LENGTH = 16;

    private RetryIntegrity() {
    }

    /**
     * Computes the tag for the Retry packet bytes from the buffer's position to its limit (the buffer is
     * not moved).
     */
    public static byte[] tag(byte[] originalDcid, ByteBuffer retryPacketWithoutTag) {
        try {
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(KEY_V1, "AES"), new GCMParameterSpec(128, NONCE_V1));
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
        if (retryPacket.length < TAG_LENGTH + 7 || originalDcid.length > 255) {
            return false;
        }
        int body = retryPacket.length - TAG_LENGTH;
        byte[] expected = tag(originalDcid, ByteBuffer.wrap(retryPacket, 0, body));
        return Bytes.constantTimeEquals(expected, 0, retryPacket, body, TAG_LENGTH);
    }
}
