package org.pacelab.analysis.quic;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.pacelab.quic.crypto.CipherSuite;
import org.pacelab.quic.crypto.PacketKeys;

/**
 * Header-protection keys for one direction and encryption level. Normally one (the suite is read from the
 * ServerHello); when the ServerHello was not captured, a 32-byte secret may belong to AES-128-GCM or
 * ChaCha20-Poly1305, and both are kept. With the right key the reserved header bits always come out zero
 * (RFC 9000 §17.2, §17.3.1); a key that yields non-zero reserved bits is wrong and is dropped, so after a few packets
 * one key remains.
 */
final class KeyCandidates {
    private final PacketKeys[] keys;
    private final boolean[] alive;
    private int aliveCount;

    private KeyCandidates(PacketKeys[] keys) {
        this.keys = keys;
        this.alive = new boolean[keys.length];
        java.util.Arrays.fill(alive, true);
        this.aliveCount = keys.length;
    }

    /** Keys for a secret; {@code suiteCode} is the TLS code from the ServerHello, or -1 when unknown. */
    static KeyCandidates forSecret(byte[] secret, int suiteCode) {
        List<PacketKeys> list = new ArrayList<>();
        CipherSuite known = headerProtectionSuite(suiteCode);
        if (known != null) {
            if (secret.length == known.hashLength()) {
                list.add(PacketKeys.fromSecret(known, secret));
            }
        } else {
            for (CipherSuite s : CipherSuite.values()) {
                if (secret.length == s.hashLength()) {
                    list.add(PacketKeys.fromSecret(s, secret));
                }
            }
        }
        return list.isEmpty() ? null : new KeyCandidates(list.toArray(PacketKeys[]::new));
    }

    static KeyCandidates forKeys(PacketKeys k) {
        return new KeyCandidates(new PacketKeys[] {k});
    }

    /**
     * The suite whose header protection (and hash) a TLS suite uses: TLS_AES_128_CCM_SHA256 protects headers
     * exactly as TLS_AES_128_GCM_SHA256 does (AES-128, SHA-256; RFC 9001 §5.4.3).
     */
    static CipherSuite headerProtectionSuite(int code) {
        return switch (code) {
            case 0x1301, 0x1304 -> CipherSuite.AES_128_GCM_SHA256;
            case 0x1302 -> CipherSuite.AES_256_GCM_SHA384;
            case 0x1303 -> CipherSuite.CHACHA20_POLY1305_SHA256;
            default -> null;
        };
    }

    static String suiteName(int code) {
        return switch (code) {
            case 0x1301 -> "TLS_AES_128_GCM_SHA256";
            case 0x1302 -> "TLS_AES_256_GCM_SHA384";
            case 0x1303 -> "TLS_CHACHA20_POLY1305_SHA256";
            case 0x1304 -> "TLS_AES_128_CCM_SHA256";
            default -> String.format("0x%04x", code);
        };
    }

    /** Number of keys still possible. */
    int alive() {
        return aliveCount;
    }

    int size() {
        return keys.length;
    }

    boolean isAlive(int i) {
        return alive[i];
    }

    PacketKeys get(int i) {
        return keys[i];
    }

    /** The only remaining key (valid when {@link #alive()} is 1). */
    PacketKeys only() {
        for (int i = 0; i < keys.length; i++) {
            if (alive[i]) {
                return keys[i];
            }
        }
        throw new IllegalStateException("no key left");
    }

    /** Drops a key that produced a header with non-zero reserved bits; the last key is never dropped. */
    void eliminate(int i) {
        if (alive[i] && aliveCount > 1) {
            alive[i] = false;
            aliveCount--;
        }
    }

    /** Candidates for a labelled secret of a key log entry, or null when absent. */
    static KeyCandidates fromLog(Map<String, byte[]> secrets, String label, int suiteCode) {
        byte[] s = secrets.get(label);
        return s == null ? null : forSecret(s, suiteCode);
    }
}
