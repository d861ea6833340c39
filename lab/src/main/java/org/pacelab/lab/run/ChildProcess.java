package org.pacelab.lab.run;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** A process the runner started: its name for messages, its log files and when it started. */
public record ChildProcess(String name, Process process, Path stdout, Path stderr, long startNanos) {
    public long pid() {
        return process.pid();
    }

    public boolean alive() {
        return process.isAlive();
    }

    /** The last lines of its standard error (or output), for an error message. */
    public String tail() {
        for (Path p : new Path[] {stderr, stdout}) {
            try {
                if (p != null && Files.isRegularFile(p) && Files.size(p) > 0) {
                    List<String> lines = Files.readAllLines(p, StandardCharsets.UTF_8).stream()
                            .filter(l -> !l.isBlank()).toList();
                    if (!lines.isEmpty()) {
                        String last = lines.getLast().strip();
                        return last.length() > 300 ? last.substring(0, 300) + "..." : last;
                    }
                }
            } catch (IOException | java.io.UncheckedIOException e) {
                // fall through to the next file
            }
        }
        return "(no output)";
    }
}
