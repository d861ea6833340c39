package org.pacelab.lab.store;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;

/**
 * Keeps DuckDB's JDBC driver from filling {@code java.io.tmpdir} with copies of its native library. The driver
 * (duckdb_jdbc 1.5.6.0, {@code DuckDBNative.unpackAndLoad}) copies the 58 MB library out of its jar into
 * {@code Files.createTempFile("libduckdb_java", ".so")} in every JVM that opens a connection, loads it, and only asks
 * the JVM to delete it at exit ({@code deleteOnExit}), which never happens to a JVM killed with SIGKILL, crashed or
 * halted: 53 copies (3.1 GB) had piled up in {@code /tmp} on the project machine. The driver takes no property for
 * the directory (only {@code java.io.tmpdir}, which would move every other temporary file too) and loads a library
 * from beside its jar only when the jar carries none. So, once per JVM, after the first connection has loaded the
 * library:
 * <ol>
 *   <li>this JVM's own copy is deleted at once: Linux keeps a file's pages while a process maps it, so the loaded
 *       library goes on working and nothing is left behind however the JVM ends;
 *   <li>copies older than {@link #STALE_AFTER} that no live process maps ({@code /proc/PID/maps}) and this user owns
 *       are deleted: those of JVMs killed before this fix, or between the driver's copy and step 1. The age keeps a
 *       copy another JVM is still writing, before it loads it, from being taken.
 * </ol>
 * Housekeeping only: nothing here fails the store.
 */
final class DuckDbNativeCopies {
    /** The driver's temporary file names: the prefix, the random number createTempFile adds, the suffix. */
    static final Pattern NAME = Pattern.compile("libduckdb_java\\d+\\.so");
    static final Duration STALE_AFTER = Duration.ofMinutes(10);
    private static final String DELETED = " (deleted)";
    private static final AtomicBoolean DONE = new AtomicBoolean();

    private DuckDbNativeCopies() {}

    /** Called after a connection opened (the library is loaded by then); does its work once per JVM. */
    static void tidy() {
        if (!DONE.compareAndSet(false, true)) {
            return;
        }
        try {
            Path tmp = Path.of(System.getProperty("java.io.tmpdir")).toRealPath();
            for (Path own : copies(Files.readString(Path.of("/proc/self/maps")), tmp)) {
                Files.deleteIfExists(own);
            }
            removeStale(tmp, mappedByAnyProcess(tmp), Instant.now());
        } catch (IOException | RuntimeException e) {
            // an unreadable /proc or tmpdir leaves the copies where they are
        }
    }

    /**
     * The driver's copies in {@code tmp} that a {@code /proc/PID/maps} text maps and that are still there (a deleted
     * file is listed with " (deleted)" after its path).
     */
    static Set<Path> copies(String maps, Path tmp) {
        Set<Path> found = new HashSet<>();
        for (String line : maps.split("\n")) {
            int slash = line.indexOf('/');
            if (slash < 0 || line.endsWith(DELETED)) {
                continue;
            }
            Path p = Path.of(line.substring(slash));
            if (tmp.equals(p.getParent()) && NAME.matcher(p.getFileName().toString()).matches()) {
                found.add(p);
            }
        }
        return found;
    }

    /** The copies in {@code tmp} that some live process maps (those whose maps this user may read). */
    static Set<Path> mappedByAnyProcess(Path tmp) throws IOException {
        Set<Path> mapped = new HashSet<>();
        try (DirectoryStream<Path> procs = Files.newDirectoryStream(Path.of("/proc"), p -> p.getFileName().toString().matches("\\d+"))) {
            for (Path proc : procs) {
                try {
                    mapped.addAll(copies(Files.readString(proc.resolve("maps")), tmp));
                } catch (IOException | RuntimeException e) {
                    // the process exited, or is another user's (whose copies this user cannot delete anyway)
                }
            }
        }
        return mapped;
    }

    /**
     * Deletes the driver's copies in {@code tmp} that are not in {@code mapped}, were last written more than {@link
     * #STALE_AFTER} before {@code now} and belong to this user. Returns what it deleted.
     */
    static List<Path> removeStale(Path tmp, Set<Path> mapped, Instant now) throws IOException {
        List<Path> removed = new ArrayList<>();
        String user = System.getProperty("user.name");
        try (DirectoryStream<Path> files = Files.newDirectoryStream(tmp, p -> NAME.matcher(p.getFileName().toString()).matches())) {
            for (Path p : files) {
                try {
                    if (!Files.isRegularFile(p) || mapped.contains(p) || !Files.getOwner(p).getName().equals(user)
                            || Files.getLastModifiedTime(p).toInstant().isAfter(now.minus(STALE_AFTER))) {
                        continue;
                    }
                    Files.delete(p);
                    removed.add(p);
                } catch (IOException e) {
                    // another process removed it, or it is not ours to remove
                }
            }
        }
        return removed;
    }
}
