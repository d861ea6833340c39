package org.pacelab.lab.reproduce;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import org.pacelab.lab.scenario.Suggestions;

/**
 * Where the studies' reference files are: {@code studies/NAME.yaml} in the current directory or in the pacelab
 * installation (the directory holding {@code studies/} above the running jar), or a path given directly.
 */
public final class StudyCatalog {
    public static final String DIRECTORY = "studies";

    private final List<Path> directories;

    public StudyCatalog(List<Path> directories) {
        this.directories = List.copyOf(directories);
    }

    /** The catalog of the current directory and of the installation the class path points into. */
    public static StudyCatalog standard() {
        Set<Path> dirs = new LinkedHashSet<>();
        dirs.add(Path.of(DIRECTORY).toAbsolutePath().normalize());
        for (String entry : System.getProperty("java.class.path", "").split(java.io.File.pathSeparator)) {
            if (entry.isBlank()) {
                continue;
            }
            for (Path p = Path.of(entry).toAbsolutePath().getParent(); p != null; p = p.getParent()) {
                if (Files.isDirectory(p.resolve(DIRECTORY))) {
                    dirs.add(p.resolve(DIRECTORY).normalize());
                    break;
                }
            }
        }
        return new StudyCatalog(new ArrayList<>(dirs));
    }

    /** The study names the catalog has. */
    public List<String> names() {
        Set<String> out = new LinkedHashSet<>();
        for (Path d : directories) {
            if (!Files.isDirectory(d)) {
                continue;
            }
            try (Stream<Path> s = Files.list(d)) {
                s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".yaml")).sorted()
                        .forEach(n -> out.add(n.substring(0, n.length() - ".yaml".length())));
            } catch (IOException e) {
                // an unreadable directory has no studies
            }
        }
        return new ArrayList<>(out);
    }

    /**
     * The reference file for {@code study}: a path to a YAML file, or a study name.
     *
     * @throws IllegalArgumentException with one sentence naming the valid studies
     */
    public Path find(String study) {
        if (study.endsWith(".yaml") || study.endsWith(".yml") || study.contains("/")) {
            Path p = Path.of(study);
            if (!Files.isRegularFile(p)) {
                throw new IllegalArgumentException("the reference file " + p + " does not exist");
            }
            return p;
        }
        for (Path d : directories) {
            Path p = d.resolve(study + ".yaml");
            if (Files.isRegularFile(p)) {
                return p;
            }
        }
        List<String> names = names();
        throw new IllegalArgumentException("unknown study '" + study + "'" + Suggestions.didYouMean(study, names) + "; "
                + (names.isEmpty() ? "no studies/ directory was found here or beside the pacelab jar"
                : "studies: " + String.join(", ", names) + " (reference files in " + directories.stream()
                        .filter(Files::isDirectory).map(Path::toString).reduce((a, b) -> a + ", " + b).orElse("") + ")"));
    }
}
