package org.pacelab.sim.output;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The files of one simulated run, in its output directory: the same formats an emulated run produces (tap,
 * event log, qlogs, key log, client log) and the analyzer's outputs (as {@code pacelab analyze --out DIR}).
 */
public record RunFiles(Path dir) {
    public Path tap() { return dir.resolve("tap.pcapng"); }

    public Path events() { return dir.resolve("events.bin"); }

    public Path qlogDir() { return dir.resolve("qlog"); }

    public Path keyLog() { return dir.resolve("keys.log"); }

    public Path clientLog() { return dir.resolve("client.json"); }

    /** Client {@code flow}'s log in a run of several client/server pairs ({@code flow-N/client.json}, as the lab's). */
    public Path flowClientLog(int flow) { return dir.resolve("flow-" + flow).resolve("client.json"); }

    public Path summary() { return dir.resolve("summary.json"); }

    public Path packets() { return dir.resolve("packets.csv"); }

    public Path timeline() { return dir.resolve("timeline.csv"); }

    /** The scenario the run simulated, with its seed (deterministic: no wall-clock values). */
    public Path scenario() { return dir.resolve("sim.json"); }

    /**
     * Deletes the files an earlier run wrote into this directory (only this class's names and the qlog directory's
     * {@code server-*.sqlog} / {@code client-*.sqlog}, and {@code flow-N/client.json}), so a rerun leaves no stale
     * file of another seed behind.
     */
    public void removePrevious() throws IOException {
        for (Path p : List.of(tap(), events(), keyLog(), clientLog(), summary(), packets(), timeline(), scenario())) {
            Files.deleteIfExists(p);
        }
        try (DirectoryStream<Path> flows = Files.newDirectoryStream(dir, "flow-*")) {
            for (Path f : flows) {
                if (Files.isDirectory(f)) {
                    Files.deleteIfExists(f.resolve("client.json"));
                }
            }
        }
        if (Files.isDirectory(qlogDir())) {
            try (DirectoryStream<Path> qlogs = Files.newDirectoryStream(qlogDir(), "{server,client}-*.sqlog")) {
                for (Path q : qlogs) {
                    Files.deleteIfExists(q);
                }
            }
        }
    }
}
