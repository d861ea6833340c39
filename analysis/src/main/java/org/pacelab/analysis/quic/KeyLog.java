package org.pacelab.analysis.quic;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * An NSS key log (the SSLKEYLOGFILE format: {@code LABEL <client_random hex> <secret hex>} per line), grouped by
 * client random. Malformed lines are skipped with a note naming file:line; the rest stays usable.
 */
public final class KeyLog {
    /** TLS 1.3 labels pacelab uses (RFC 9001 §5.1 keys are derived from these secrets). */
    public static final String CLIENT_EARLY = "CLIENT_EARLY_TRAFFIC_SECRET";
    public static final String CLIENT_HANDSHAKE = "CLIENT_HANDSHAKE_TRAFFIC_SECRET";
    public static final String SERVER_HANDSHAKE = "SERVER_HANDSHAKE_TRAFFIC_SECRET";
    public static final String CLIENT_TRAFFIC_0 = "CLIENT_TRAFFIC_SECRET_0";
    public static final String SERVER_TRAFFIC_0 = "SERVER_TRAFFIC_SECRET_0";

    private final Map<String, Map<String, byte[]>> byClientRandom = new LinkedHashMap<>();
    private final List<String> notes = new ArrayList<>();
    private final List<String> sources = new ArrayList<>();

    public static KeyLog read(Path file) throws IOException {
        KeyLog k = new KeyLog();
        k.add(Files.readString(file, StandardCharsets.ISO_8859_1), file.toString());
        return k;
    }

    /** Adds the lines of one key log text; {@code source} names it in notes. */
    public void add(String text, String source) {
        sources.add(source);
        String[] lines = text.split("\r?\n", -1);
        int bad = 0;
        String firstBad = null;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\\s+");
            if (f.length != 3 || !isHex(f[1]) || f[1].length() != 64 || !isHex(f[2]) || f[2].length() % 2 != 0) {
                bad++;
                if (firstBad == null) {
                    firstBad = source + ":" + (i + 1);
                }
                continue;
            }
            byClientRandom.computeIfAbsent(f[1].toLowerCase(Locale.ROOT), r -> new LinkedHashMap<>())
                    .put(f[0], HexFormat.of().parseHex(f[2]));
        }
        if (bad > 0) {
            notes.add(bad + " malformed key log line(s) skipped, the first at " + firstBad
                    + " (expected: LABEL, a 64-digit hex client random, a hex secret)");
        }
    }

    private static boolean isHex(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (Character.digit(s.charAt(i), 16) < 0) {
                return false;
            }
        }
        return !s.isEmpty();
    }

    /** Secrets by label for a client random, or null when the log has none for it. */
    public Map<String, byte[]> secretsFor(byte[] clientRandom) {
        return byClientRandom.get(HexFormat.of().formatHex(clientRandom));
    }

    /** Number of TLS connections (client randoms) in the log. */
    public int connections() {
        return byClientRandom.size();
    }

    /** The only connection's secrets when the log holds exactly one, else null. */
    public Map<String, byte[]> onlyConnection() {
        return byClientRandom.size() == 1 ? byClientRandom.values().iterator().next() : null;
    }

    public List<String> notes() {
        return List.copyOf(notes);
    }

    /** Where the lines came from, for messages. */
    public String describeSources() {
        return String.join(", ", sources);
    }
}
