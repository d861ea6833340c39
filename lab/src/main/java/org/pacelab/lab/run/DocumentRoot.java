package org.pacelab.lab.run;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.pacelab.lab.scenario.Transfer;

/**
 * The files servers serve: one per stream, {@code data-BYTES-I.bin}, created sparse (they read as zeros and take no
 * disk space), so every server peer sends the same bytes from a real file as in the study.
 */
public final class DocumentRoot {
    private DocumentRoot() {}

    /** Creates the transfer's files under {@code root} if needed and returns their URL paths. */
    public static List<String> prepare(Path root, Transfer t) throws IOException {
        Files.createDirectories(root);
        List<String> paths = new ArrayList<>();
        for (int i = 1; i <= t.streams(); i++) {
            String name = "data-" + t.bytesPerStream() + "-" + i + ".bin";
            Path f = root.resolve(name);
            if (!Files.isRegularFile(f) || Files.size(f) != t.bytesPerStream()) {
                Path tmp = root.resolve("." + name + ".tmp");
                try (RandomAccessFile raf = new RandomAccessFile(tmp.toFile(), "rw")) {
                    raf.setLength(t.bytesPerStream());
                }
                Files.move(tmp, f, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            }
            paths.add("/" + name);
        }
        return paths;
    }
}
