package org.pacelab.quic.crypto;

import org.pacelab.quic.wire.Bytes;

/**
 * Initial packet protection secrets of QUIC v1 (RFC 9001 §5.2), derived from the Destination
 * Connection ID of the client's first Initial packet with SHA-256 and AES-128-GCM.
 */
public final class InitialSecrets {
    /** initial_salt of QUIC version 1 (RFC 9001 §5.2). */
    private static final byte[] SALT_V1 = Bytes.fromHex("38762cf7f55934b34d179ae6a4c80cadccbb7f0a");
    private static final String HASH = "SHA-256";

    private InitialSecrets() {
    }

    /** A copy of the v1 initial salt. */
    public static byte[] saltV1() {
        return SALT_V1.clone();
    }

    /** initial_secret = HKDF-Extract(initial_salt, dcid). */
    public static byte[] initialSecret(byte[] dcid) {
        return Hkdf.extract(HASH, SALT_V1, dcid);
    }

    /** client_initial_secret = HKDF-Expand-Label(initial_secret, "client in", "", 32). */
    public static byte[] clientSecret(byte[] dcid) {
        return Hkdf.expandLabel(HASH, initialSecret(dcid), "client in", new byte[0], 32);
    }

    /** server_initial_secret = HKDF-Expand-Label(initial_secret, "server in", "", 32). */
    public static byte[] serverSecret(byte[] dcid) {
        return Hkdf.expandLabel(HASH, initialSecret(dcid), "server in", new byte[0], 32);
    }

    /** The keys protecting Initial packets sent by the client. */
    public static PacketKeys clientKeys(byte[] dcid) {
        return PacketKeys.fromSecret(CipherSuite.AES_128_GCM_SHA256, clientSecret(dcid));
    }

    /** The keys protecting Initial packets sent by the server. */
    public static PacketKeys serverKeys(byte[] dcid) {
        return PacketKeys.fromSecret(CipherSuite.AES_128_GCM_SHA256, serverSecret(dcid));
    }
}
