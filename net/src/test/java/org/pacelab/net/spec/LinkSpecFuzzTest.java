package org.pacelab.net.spec;

import java.nio.charset.StandardCharsets;

import org.pacelab.net.dc.DcSpecParser;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Coverage-guided fuzzing of the link specs users type ({@code --preset/--down/--up}, and {@code --dc/--path-a/--path-b/
 * --up} for dual connectivity): anything wrong is a {@link SpecException} naming the field; nothing else may come out.
 * An input is text, one option value per line (readable seeds in {@code LinkSpecFuzzTestInputs/}).
 */
class LinkSpecFuzzTest {
    private static String[] lines(byte[] data, int n) {
        String[] parts = new String(data, StandardCharsets.UTF_8).split("\n", -1);
        String[] out = new String[n];
        for (int i = 0; i < n; i++) {
            out[i] = i < parts.length && !parts[i].isEmpty() ? parts[i] : null;
        }
        return out;
    }

    /** Lines: preset, --down, --up. */
    @FuzzTest(maxDuration = "10s")
    void linkSpec(byte[] data) {
        String[] f = lines(data, 3);
        try {
            LinkSpecParser.parse(f[0] == null ? "quic-steps" : f[0], f[1], f[2]);
        } catch (SpecException e) {
            // one sentence for the user
        }
    }

    /** Lines: --dc, --path-a, --path-b, --up. */
    @FuzzTest(maxDuration = "10s")
    void dcSpec(byte[] data) {
        String[] f = lines(data, 4);
        try {
            DcSpecParser.parse(f[0], f[1], f[2], f[3]);
        } catch (SpecException e) {
            // one sentence for the user
        }
    }
}
