package org.pacelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Output in a terminal that is not UTF-8 (LANG=C): what it can show instead of '?'; files stay UTF-8. */
class TerminalTextTest {
    @Test
    void asciiGetsReadableReplacements() {
        var ascii = StandardCharsets.US_ASCII.newEncoder();
        assertEquals("12.3 +/- 0.4 us, 3 x 2 -> 6, >= 99 %, cafe", TerminalText.fold("12.3 ± 0.4 µs, 3 × 2 → 6, ≥ 99 %, café", ascii));
        assertEquals("plain text stays", TerminalText.fold("plain text stays", ascii));
        assertEquals("?", TerminalText.fold("日", ascii));
    }

    @Test
    void latin1KeepsWhatItCanShow() {
        assertEquals("12.3 ± 0.4 µs -> 6", TerminalText.fold("12.3 ± 0.4 µs → 6", StandardCharsets.ISO_8859_1.newEncoder()));
    }

    @Test
    void unicodeConsolesAreLeftAlone() {
        assertTrue(TerminalText.isUnicode(StandardCharsets.UTF_8));
        assertFalse(TerminalText.isUnicode(StandardCharsets.US_ASCII));
    }

    /** {@code pacelab analyze} in a child JVM under LANG=C: the summary shows "us", not "?s"; summary.json is UTF-8. */
    @Test
    void analyzeUnderLangC(@TempDir Path dir) throws Exception {
        Path capture = CliBadInputTest.corruptCapture(dir.resolve("c.pcap"));
        Path out = dir.resolve("out");
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                "analyze", capture.toString(), "--bytes", "1KiB", "--partial", "--out", out.toString()));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(dir.resolve("stdout").toFile())
                .redirectError(dir.resolve("stderr").toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("LC_") || k.equals("LANG") || k.startsWith("JAVA_TOOL"));
        pb.environment().put("LANG", "C");
        pb.environment().put("LC_ALL", "C");
        Process p = pb.start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "analyze did not finish");
        byte[] stdout = Files.readAllBytes(dir.resolve("stdout"));
        String text = new String(stdout, StandardCharsets.US_ASCII);
        assertEquals(0, p.exitValue(), text + Files.readString(dir.resolve("stderr")));
        for (byte b : stdout) {
            assertTrue(b >= 0, "a non-ASCII byte in LANG=C output:\n" + text);
        }
        assertTrue(text.contains(" us"), text);
        assertFalse(text.contains("?"), text);
        // files are UTF-8 whatever the locale
        String json = Files.readString(out.resolve("summary.json"), StandardCharsets.UTF_8);
        assertTrue(json.contains("capture_truncated"), json);
    }
}
