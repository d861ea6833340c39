package org.pacelab.lab.scenario;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Coverage-guided fuzzing of scenario files (YAML): whatever the file holds, reading it ends in a {@link Scenario} or a
 * {@link ScenarioException} listing the problems with file:line:column; nothing else may come out. Seeds: the catalog
 * in {@code scenarios/}.
 */
class ScenarioFuzzTest {
    private static final Path FILE;

    static {
        try {
            FILE = Files.createTempFile("pacelab-fuzz", ".yaml");
            FILE.toFile().deleteOnExit();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @FuzzTest(maxDuration = "10s")
    void scenario(byte[] data) throws IOException {
        Files.write(FILE, data);
        try {
            ScenarioReader.read(FILE);
        } catch (ScenarioException e) {
            // every problem, located
        }
    }
}
