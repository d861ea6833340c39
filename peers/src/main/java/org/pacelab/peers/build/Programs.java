package org.pacelab.peers.build;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Where programs are found: the directories of a PATH, then the system directories a user's PATH often lacks. */
@FunctionalInterface
public interface Programs {
    /** Where Debian puts administration programs (gtlsserver, nginx, tc, sysctl); a user's PATH often lacks them. */
    List<Path> SYSTEM_DIRS = List.of(Path.of("/usr/local/sbin"), Path.of("/usr/sbin"), Path.of("/sbin"));

    /** The program's absolute path, or empty. */
    Optional<Path> find(String program);

    /** The directories of this process's PATH, in order. */
    static List<Path> pathOfThisProcess() {
        List<Path> dirs = new ArrayList<>();
        String path = System.getenv("PATH");
        if (path != null) {
            for (String d : path.split(":")) {
                if (!d.isEmpty()) {
                    dirs.add(Path.of(d));
                }
            }
        }
        return dirs;
    }

    /** Looks in {@code path}, then in {@code systemDirs}, for a regular executable file. */
    static Programs searching(List<Path> path, List<Path> systemDirs) {
        List<Path> dirs = new ArrayList<>(path);
        dirs.addAll(systemDirs);
        List<Path> all = List.copyOf(dirs);
        return program -> {
            if (program.isEmpty() || program.contains("/")) {
                return Optional.empty();
            }
            for (Path d : all) {
                Path p = d.resolve(program).toAbsolutePath();
                if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                    return Optional.of(p);
                }
            }
            return Optional.empty();
        };
    }

    /** This process's PATH, then the system directories. */
    static Programs ofThisProcess() {
        return searching(pathOfThisProcess(), SYSTEM_DIRS);
    }
}
