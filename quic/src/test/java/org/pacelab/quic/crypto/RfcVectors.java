package org.pacelab.quic.crypto;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.pacelab.quic.wire.Bytes;

/** The test vectors of an RFC appendix: {@code name=hex} lines ({@code #} comments) in a test resource. */
public final class RfcVectors {
    private final String rfc;
    private final Map<String, String> values;

    private RfcVectors(String rfc, Map<String, String> values) {
        this.rfc = rfc;
        this.values = values;
    }

    /** Reads {@code resource} (e.g. {@code /rfc/rfc9001-appendix-a.txt}) of {@code rfc} (e.g. "RFC 9001"). */
    public static RfcVectors read(String rfc, String resource) {
        try (InputStream in = RfcVectors.class.getResourceAsStream(resource)) {
            Map<String, String> m = new HashMap<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.US_ASCII).split("\n")) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    int eq = line.indexOf('=');
                    m.put(line.substring(0, eq), line.substring(eq + 1).trim());
                }
            }
            return new RfcVectors(rfc, m);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    public byte[] hex(String name) {
        String v = values.get(name);
        if (v == null) {
            throw new IllegalArgumentException("no " + rfc + " vector named " + name + "; have " + values.keySet());
        }
        return Bytes.fromHex(v);
    }
}
