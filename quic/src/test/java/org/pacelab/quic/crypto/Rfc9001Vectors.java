package org.pacelab.quic.crypto;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.pacelab.quic.wire.Bytes;

/** The RFC 9001 Appendix A test vectors, read from src/test/resources/rfc/rfc9001-appendix-a.txt. */
public final class Rfc9001Vectors {
    private static final Map<String, String> VALUES = load();
    /** The client-chosen Destination Connection ID of Appendix A. */
    public static final byte[] DCID = Bytes.fromHex("8394c8f03e515708");

    private Rfc9001Vectors() {
    }

    public static byte[] hex(String name) {
        String v = VALUES.get(name);
        if (v == null) {
            throw new IllegalArgumentException("no RFC 9001 vector named " + name + "; have " + VALUES.keySet());
        }
        return Bytes.fromHex(v);
    }

    /** The 1162-byte client Initial payload: the CRYPTO frame followed by PADDING. */
    public static byte[] clientInitialPayload() {
        byte[] crypto = hex("client_initial_payload_crypto");
        byte[] payload = new byte[1162];
        System.arraycopy(crypto, 0, payload, 0, crypto.length);
        return payload;
    }

    private static Map<String, String> load() {
        try (InputStream in = Rfc9001Vectors.class.getResourceAsStream("/rfc/rfc9001-appendix-a.txt")) {
            Map<String, String> m = new HashMap<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.US_ASCII).split("\n")) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    int eq = line.indexOf('=');
                    m.put(line.substring(0, eq), line.substring(eq + 1).trim());
                }
            }
            return m;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
