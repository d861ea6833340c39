package org.pacelab.quic.crypto;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/** {@link PacketAead} through the JDK's JCA provider (AES-GCM, ChaCha20-Poly1305); one cached {@link Cipher}. */
final class JdkAead implements PacketAead {
    private final CipherSuite suite;
    private final SecretKeySpec key;
    private final Cipher cipher;

    JdkAead(CipherSuite suite, byte[] key) {
        this.suite = suite;
        this.key = new SecretKeySpec(key, suite.aesHeaderProtection() ? "AES" : "ChaCha20");
        this.cipher = PacketKeys.cipher(suite.aeadTransformation());
    }

    @Override
    public int seal(ByteBuffer packet, int headerOffset, int headerLength, int payloadOffset, int payloadLength,
                    byte[] nonce, long packetNumber) {
        try {
            cipher.init(Cipher.ENCRYPT_MODE, key, spec(nonce));
            if (packet.hasArray()) {
                byte[] a = packet.array();
                int base = packet.arrayOffset();
                cipher.updateAAD(a, base + headerOffset, headerLength);
                return cipher.doFinal(a, base + payloadOffset, payloadLength, a, base + payloadOffset);
            }
            cipher.updateAAD(slice(packet, headerOffset, headerLength));
            return cipher.doFinal(slice(packet, payloadOffset, payloadLength),
                    slice(packet, payloadOffset, payloadLength + CipherSuite.TAG_LENGTH));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AEAD encryption of packet " + packetNumber + " failed: " + e.getMessage(), e);
        }
    }

    @Override
    public int open(ByteBuffer packet, int headerOffset, int headerLength, int payloadOffset, int ciphertextLength,
                    byte[] nonce, long packetNumber) throws AeadException {
        try {
            cipher.init(Cipher.DECRYPT_MODE, key, spec(nonce));
            if (packet.hasArray()) {
                byte[] a = packet.array();
                int base = packet.arrayOffset();
                cipher.updateAAD(a, base + headerOffset, headerLength);
                return cipher.doFinal(a, base + payloadOffset, ciphertextLength, a, base + payloadOffset);
            }
            cipher.updateAAD(slice(packet, headerOffset, headerLength));
            return cipher.doFinal(slice(packet, payloadOffset, ciphertextLength),
                    slice(packet, payloadOffset, ciphertextLength));
        } catch (AEADBadTagException e) {
            throw new AeadException("packet " + packetNumber + " failed AEAD authentication", e);
        } catch (GeneralSecurityException e) {
            throw new AeadException("packet " + packetNumber + " could not be decrypted: " + e.getMessage(), e);
        }
    }

    private java.security.spec.AlgorithmParameterSpec spec(byte[] nonce) {
        return suite.aesHeaderProtection() ? new GCMParameterSpec(128, nonce) : new IvParameterSpec(nonce);
    }

    private static ByteBuffer slice(ByteBuffer b, int offset, int length) {
        return b.duplicate().limit(offset + length).position(offset);
    }
}
