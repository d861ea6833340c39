package org.pacelab.lab.run;

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
}
