package org.pacelab.quic.crypto;

/**
 * Initial packet protection secrets (RFC 9001 §5.2; QUIC v2: RFC 9369 §3.3.1, another salt), derived from the
 * Destination Connection ID of the client's first Initial packet with SHA-256 and AES-128-GCM. The methods without
 * a version are QUIC v1's.
 */
public final class InitialSecrets {
    private static final String HASH = "SHA-256";

    private InitialSecrets() {
    }

    /** A copy of the v1 initial salt. */
    public static byte[] saltV1() {
        return VersionProtection.V1.initialSalt().clone();
    }

    /** initial_secret = HKDF-Extract(initial_salt, dcid) of QUIC v1. */
    public static byte[] initialSecret(byte[] dcid) {
        return initialSecret(VersionProtection.V1, dcid);
    }

    public static byte[] initialSecret(VersionProtection v, byte[] dcid) {
        return Hkdf.extract(HASH, v.initialSalt(), dcid);
    }

    /** client_initial_secret = HKDF-Expand-Label(initial_secret, "client in", "", 32) of QUIC v1. */
    public static byte[] clientSecret(byte[] dcid) {
        return clientSecret(VersionProtection.V1, dcid);
    }

    public static byte[] clientSecret(VersionProtection v, byte[] dcid) {
        return Hkdf.expandLabel(HASH, initialSecret(v, dcid), "client in", new byte[0], 32);
    }

    /** server_initial_secret = HKDF-Expand-Label(initial_secret, "server in", "", 32) of QUIC v1. */
    public static byte[] serverSecret(byte[] dcid) {
        return serverSecret(VersionProtection.V1, dcid);
    }

    public static byte[] serverSecret(VersionProtection v, byte[] dcid) {
        return Hkdf.expandLabel(HASH, initialSecret(v, dcid), "server in", new byte[0], 32);
    }

    /** The keys protecting Initial packets sent by the client (QUIC v1). */
    public static PacketKeys clientKeys(byte[] dcid) {
        return clientKeys(VersionProtection.V1, dcid);
    }

    public static PacketKeys clientKeys(VersionProtection v, byte[] dcid) {
        return PacketKeys.fromSecret(CipherSuite.AES_128_GCM_SHA256, clientSecret(v, dcid), v);
    }

    /** The keys protecting Initial packets sent by the server (QUIC v1). */
    public static PacketKeys serverKeys(byte[] dcid) {
        return serverKeys(VersionProtection.V1, dcid);
    }

    public static PacketKeys serverKeys(VersionProtection v, byte[] dcid) {
        return PacketKeys.fromSecret(CipherSuite.AES_128_GCM_SHA256, serverSecret(v, dcid), v);
    }
}
