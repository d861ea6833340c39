package org.pacelab.quic.crypto;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * HKDF (RFC 5869) and the TLS 1.3 HKDF-Expand-Label (RFC 8446 §7.1) over {@link Mac}. The hash is
 * named as in JCA ("SHA-256", "SHA-384"); key derivation is not on the per-packet path.
 */
public final class Hkdf {
    private static final byte[] LABEL_PREFIX = "tls13 ".getBytes(StandardCharsets.US_ASCII);

    private Hkdf() {
    }

    /** HKDF-Extract(salt, ikm) = HMAC-Hash(salt, ikm); an empty salt means HashLen zero bytes. */
    public static byte[] extract(String hashAlg, byte[] salt, byte[] ikm) {
        Mac mac = mac(hashAlg);
        byte[] key = salt == null || salt.length == 0 ? new byte[mac.getMacLength()] : salt;
        init(mac, key);
        return mac.doFinal(ikm);
    }

    /** HKDF-Expand(prk, info, length), RFC 5869 §2.3. */
    public static byte[] expand(String hashAlg, byte[] prk, byte[] info, int length) {
        Mac mac = mac(hashAlg);
        int hashLen = mac.getMacLength();
        if (length < 0 || length > 255 * hashLen) {
            throw new IllegalArgumentException("HKDF-Expand length " + length + " is outside 0.." + (255 * hashLen));
        }
        init(mac, prk);
        byte[] out = new byte[length];
        byte[] t = new byte[0];
        int done = 0;
        for (int i = 1; done < length; i++) {
            mac.update(t);
            mac.update(info);
            mac.update((byte) i);
            t = mac.doFinal();
            int n = Math.min(hashLen, length - done);
            System.arraycopy(t, 0, out, done, n);
            done += n;
        }
        return out;
    }

    /**
     * HKDF-Expand-Label(secret, label, context, length) of TLS 1.3 (RFC 8446 §7.1): the info is the
     * HkdfLabel struct {uint16 length; opaque label&lt;7..255&gt; = "tls13 " + label; opaque context&lt;0..255&gt;}.
     */
    public static byte[] expandLabel(String hashAlg, byte[] secret, String label, byte[] context, int length) {
        return expand(hashAlg, secret, hkdfLabel(label, context, length), length);
    }

    /** The serialized HkdfLabel struct used as HKDF-Expand info by {@link #expandLabel} (RFC 8446 §7.1). */
    public static byte[] hkdfLabel(String label, byte[] context, int length) {
        byte[] l = label.getBytes(StandardCharsets.US_ASCII);
        byte[] ctx = context == null ? new byte[0] : context;
        int labelLen = LABEL_PREFIX.length + l.length;
        if (labelLen > 255 || ctx.length > 255 || length > 0xffff) {
            throw new IllegalArgumentException("HKDF-Expand-Label label, context or length too long");
        }
        byte[] info = new byte[2 + 1 + labelLen + 1 + ctx.length];
        info[0] = (byte) (length >>> 8);
        info[1] = (byte) length;
        info[2] = (byte) labelLen;
        System.arraycopy(LABEL_PREFIX, 0, info, 3, LABEL_PREFIX.length);
        System.arraycopy(l, 0, info, 3 + LABEL_PREFIX.length, l.length);
        info[3 + labelLen] = (byte) ctx.length;
        System.arraycopy(ctx, 0, info, 4 + labelLen, ctx.length);
        return info;
    }

    private static Mac mac(String hashAlg) {
        String name = switch (hashAlg.toUpperCase(java.util.Locale.ROOT).replace("-", "")) {
            case "SHA256", "HMACSHA256" -> "HmacSHA256";
            case "SHA384", "HMACSHA384" -> "HmacSHA384";
            case "SHA512", "HMACSHA512" -> "HmacSHA512";
            default -> throw new IllegalArgumentException("unsupported HKDF hash '" + hashAlg + "'; valid: SHA-256, SHA-384, SHA-512");
        };
        try {
            return Mac.getInstance(name);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK lacks " + name, e);
        }
    }

    private static void init(Mac mac, byte[] key) {
        try {
            mac.init(new SecretKeySpec(key, mac.getAlgorithm()));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot initialise " + mac.getAlgorithm(), e);
        }
    }
}
