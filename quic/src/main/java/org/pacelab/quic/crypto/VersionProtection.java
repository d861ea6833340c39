package org.pacelab.quic.crypto;

import org.pacelab.quic.wire.Bytes;

/**
 * What packet protection differs in between QUIC versions: the Initial salt, the HKDF labels of packet keys and key
 * updates, and the Retry integrity key and nonce. QUIC v1: RFC 9001 §5.1, §5.2, §5.8, §6.1; QUIC v2: RFC 9369 §3.3
 * (salt "0x0dede3def700a6db819381be6e269dcbf9bd2ed9", labels "quicv2 key", "quicv2 iv", "quicv2 hp", "quicv2 ku",
 * Retry key and nonce of §3.3.3). The version numbers are {@code org.pacelab.quic.packet.QuicVersion}'s.
 */
public record VersionProtection(int version, byte[] initialSalt, String keyLabel, String ivLabel, String hpLabel, String kuLabel,
                                byte[] retryKey, byte[] retryNonce) {
    /** QUIC version 1 (RFC 9000, RFC 9001). */
    public static final VersionProtection V1 = new VersionProtection(0x0000_0001,
            Bytes.fromHex("38762cf7f55934b34d179ae6a4c80cadccbb7f0a"), "quic key", "quic iv", "quic hp", "quic ku",
            Bytes.fromHex("be0c690b9f66575a1d766b54e368c84e"), Bytes.fromHex("461599d35d632bf2239825bb"));
    /** QUIC version 2 (RFC 9369). */
    public static final VersionProtection V2 = new VersionProtection(0x6b33_43cf,
            Bytes.fromHex("0dede3def700a6db819381be6e269dcbf9bd2ed9"), "quicv2 key", "quicv2 iv", "quicv2 hp", "quicv2 ku",
            Bytes.fromHex("8fb4b01b56ac48e260fbcbcead7ccc92"), Bytes.fromHex("d86969bc2d7c6d9990efb04a"));

    /** The constants of {@code version}; an unknown version is a programming error (callers check support first). */
    public static VersionProtection of(int version) {
        if (version == V1.version) {
            return V1;
        }
        if (version == V2.version) {
            return V2;
        }
        throw new IllegalArgumentException("no packet protection is known for QUIC version 0x" + Integer.toHexString(version));
    }
}
