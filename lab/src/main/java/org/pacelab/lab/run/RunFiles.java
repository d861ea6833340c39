package org.pacelab.lab.run;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** The file names inside one run's directory. */
public final class RunFiles {
    public static final String TAP = "tap.pcapng";
    public static final String EVENTS = "events.bin";
    public static final String KEYS = "keys.log";
    public static final String QLOG = "qlog";
    public static final String SUMMARY = "summary.json";
    public static final String PACKETS = "packets.csv";
    public static final String TIMELINE = "timeline.csv";

    private RunFiles() {}

    static Path log(Path dir, String who, String stream) {
        return dir.resolve(who + "." + stream + ".log");
    }

    /** Whether a process's output file has a line starting with {@code prefix} (false while it does not exist yet). */
    static boolean hasLine(Path out, String prefix) {
        try {
            if (!Files.isRegularFile(out)) {
                return false;
            }
            String s = Files.readString(out, StandardCharsets.UTF_8);
            return s.startsWith(prefix) || s.contains("\n" + prefix);
        } catch (IOException e) {
            return false;
        }
    }
}
