package org.pacelab.quic.crypto;

import org.pacelab.quic.wire.Bytes;

/** The RFC 9001 Appendix A test vectors, read from src/test/resources/rfc/rfc9001-appendix-a.txt. */
public final class Rfc9001Vectors {
    private static final RfcVectors VALUES = RfcVectors.read("RFC 9001", "/rfc/rfc9001-appendix-a.txt");
    /** The client-chosen Destination Connection ID of Appendix A. */
    public static final byte[] DCID = Bytes.fromHex("8394c8f03e515708");

    private Rfc9001Vectors() {
    }

    public static byte[] hex(String name) {
        return VALUES.hex(name);
    }

    /** The 1162-byte client Initial payload: the CRYPTO frame followed by PADDING. */
    public static byte[] clientInitialPayload() {
        byte[] crypto = hex("client_initial_payload_crypto");
        byte[] payload = new byte[1162];
        System.arraycopy(crypto, 0, payload, 0, crypto.length);
        return payload;
    }
}
