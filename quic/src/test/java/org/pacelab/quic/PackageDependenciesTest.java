package org.pacelab.quic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The congestion controllers, the pacers and recovery do not import each other both ways (issue 14, "the connection
 * core"): {@code pacing} uses neither {@code cc} nor {@code recovery}; {@code cc} uses neither {@code pacing} nor
 * {@code recovery} (the controller hears only whether the connection paces); {@code recovery} ties them together,
 * handing each plain values, and the connection's configuration ({@code conn.CongestionConfig}) bundles the
 * controller's options with the pacer's. Checked on the main sources' text: every mention of another package's name,
 * imports and fully qualified names alike.
 */
class PackageDependenciesTest {
    private static final Path SOURCES = Path.of("src/main/java/org/pacelab/quic");

    private static List<String> mentions(String fromPackage, String toPackage) throws IOException {
        List<String> found = new ArrayList<>();
        String name = "org.pacelab.quic." + toPackage + ".";
        try (Stream<Path> files = Files.list(SOURCES.resolve(fromPackage))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                List<String> lines = Files.readAllLines(f);
                for (int i = 0; i < lines.size(); i++) {
                    int at = lines.get(i).indexOf(name);
                    if (at >= 0) {
                        String rest = lines.get(i).substring(at + name.length());
                        found.add(f.getFileName() + ":" + (i + 1) + " " + rest.split("[^A-Za-z0-9_]")[0]);
                    }
                }
            }
        }
        return found;
    }

    @Test
    void theSourcesAreWhereTheTestLooks() {
        assertTrue(Files.isDirectory(SOURCES.resolve("cc")) && Files.isDirectory(SOURCES.resolve("pacing"))
                && Files.isDirectory(SOURCES.resolve("recovery")), SOURCES.toAbsolutePath().toString());
    }

    @Test
    void pacingUsesNeitherControllersNorRecovery() throws IOException {
        assertEquals(List.of(), mentions("pacing", "cc"));
        assertEquals(List.of(), mentions("pacing", "recovery"));
    }

    @Test
    void controllersUseNeitherPacersNorRecovery() throws IOException {
        assertEquals(List.of(), mentions("cc", "recovery"));
        assertEquals(List.of(), mentions("cc", "pacing"));
    }

    @Test
    void controllersAndPacersUseNoConnectionClass() throws IOException {
        assertEquals(List.of(), mentions("cc", "conn"));
        assertEquals(List.of(), mentions("pacing", "conn"));
        assertEquals(List.of(), mentions("recovery", "conn"));
    }
}
