package org.pacelab.peers.build;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.pacelab.peers.build.Commands.Result;

/**
 * Where a peer's sources come from, in this order: the {@code --source} values (a source tree, a tarball of one, or
 * a directory of snapshots such as {@code picoquic-d199d45be869.tar.gz}), the directory {@code PACELAB_PEER_SOURCES}
 * names, and the pinned upstream commit fetched with git when the network allows. Sources are never changed: a
 * tarball is extracted into the build's work directory, a tree is built out of tree.
 */
public final class PeerSources {
    /** The environment variable naming a directory of source snapshots. */
    public static final String ENVIRONMENT = "PACELAB_PEER_SOURCES";
    private static final Pattern SHORT_COMMIT = Pattern.compile(".*-([0-9a-f]{12,40})");
    private static final long GIT_TIMEOUT_SECONDS = 600;

    private final List<Path> given;
    private final Path snapshots;
    private final Programs programs;

    /**
     * @param given     the {@code --source} values, in order
     * @param snapshots the directory {@code PACELAB_PEER_SOURCES} names, or null
     */
    public PeerSources(List<Path> given, Path snapshots, Programs programs) {
        this.given = given.stream().map(p -> p.toAbsolutePath().normalize()).toList();
        this.snapshots = snapshots == null ? null : snapshots.toAbsolutePath().normalize();
        this.programs = programs;
    }

    /** The {@code --source} values with {@code PACELAB_PEER_SOURCES} from this environment. */
    public static PeerSources of(List<Path> given, Map<String, String> environment, Programs programs) {
        String dir = environment.get(ENVIRONMENT);
        return new PeerSources(given, dir == null || dir.isBlank() ? null : Path.of(dir), programs);
    }

    /** Whether sources were given on the command line. */
    public boolean explicit() {
        return !given.isEmpty();
    }

    /**
     * Checks that every {@code --source} and {@code PACELAB_PEER_SOURCES} is what it should be: a tree or a tarball of
     * one of {@code known}, or a directory holding snapshots of them.
     */
    public void check(List<SourceComponent> known) throws BuildException {
        for (Path p : given) {
            String what = "--source " + p;
            if (!Files.exists(p)) {
                throw new BuildException(what + ": no such file or directory; give a source tree, a tarball of one, or a directory "
                        + "of snapshots such as " + known.getFirst().name() + "-" + known.getFirst().shortRef() + ".tar.gz");
            }
            if (known.stream().noneMatch(c -> matches(c, p))) {
                throw new BuildException(what + " is not a source tree of " + names(known) + " (" + markers(known)
                        + "), a tarball of one, nor a directory of their snapshots (" + known.getFirst().name() + "-*.tar.gz ...)");
            }
        }
        if (snapshots != null && !Files.isDirectory(snapshots)) {
            throw new BuildException(ENVIRONMENT + "=" + snapshots + " is not a directory; set it to a directory of peer source "
                    + "snapshots (e.g. ../shared/peer-sources) or unset it");
        }
    }

    private boolean matches(SourceComponent c, Path p) {
        if (Files.isDirectory(p)) {
            return c.isTree(p) || !snapshotsIn(c, p).isEmpty();
        }
        return tarballTop(c, p) != null;
    }

    /**
     * The component's source: from {@code --source}, else from {@code PACELAB_PEER_SOURCES}, else fetched from
     * upstream; extracted or checked out under {@code workDir}.
     */
    public ResolvedSource resolve(SourceComponent c, Path workDir, BuildLog log) throws BuildException {
        for (Path p : given) {
            Optional<ResolvedSource> r = from(c, p, workDir, log, "--source " + p);
            if (r.isPresent()) {
                return r.get();
            }
        }
        if (snapshots != null) {
            Optional<ResolvedSource> r = from(c, snapshots, workDir, log, ENVIRONMENT + "=" + snapshots);
            if (r.isPresent()) {
                return r.get();
            }
        }
        return upstream(c, workDir, log);
    }

    private Optional<ResolvedSource> from(SourceComponent c, Path p, Path workDir, BuildLog log, String where) throws BuildException {
        if (Files.isDirectory(p)) {
            if (c.isTree(p)) {
                return Optional.of(new ResolvedSource(c, p, treeCommit(p), p.toString()));
            }
            List<Path> found = snapshotsIn(c, p);
            if (found.isEmpty()) {
                return Optional.empty();
            }
            Path pinned = found.stream().filter(f -> f.getFileName().toString().contains("-" + c.shortRef())).findFirst().orElse(null);
            if (pinned == null && found.size() > 1) {
                throw new BuildException(where + " holds several " + c.name() + " snapshots (" + String.join(", ",
                        found.stream().map(f -> f.getFileName().toString()).toList()) + ") and none of the pinned " + c.shortRef()
                        + "; give the one to build with --source FILE");
            }
            Path chosen = pinned != null ? pinned : found.getFirst();
            return Optional.of(Files.isDirectory(chosen) ? new ResolvedSource(c, chosen, treeCommit(chosen), chosen.toString())
                    : extract(c, chosen, workDir, log));
        }
        if (Files.isRegularFile(p) && tarballTop(c, p) != null) {
            return Optional.of(extract(c, p, workDir, log));
        }
        return Optional.empty();
    }

    /** Snapshot tarballs ({@code NAME-*.tar.gz}, {@code .tgz}, {@code .tar.xz}) and trees ({@code NAME-*}) in a directory. */
    private static List<Path> snapshotsIn(SourceComponent c, Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(f -> {
                String n = f.getFileName().toString();
                if (!n.startsWith(c.name() + "-") || !Character.isLetterOrDigit(n.charAt(c.name().length() + 1))) {
                    return false;
                }
                boolean tarball = n.endsWith(".tar.gz") || n.endsWith(".tgz") || n.endsWith(".tar.xz");
                return tarball && Files.isRegularFile(f) || c.isTree(f);
            }).sorted(Comparator.comparing(Path::toString)).toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    /** The top directory of a tarball that holds the component's tree (its marker), or null. */
    private String tarballTop(SourceComponent c, Path tarball) {
        Optional<Path> tar = programs.find("tar");
        if (tar.isEmpty()) {
            return null;
        }
        Result r = Commands.run(List.of(tar.get().toString(), "-tf", tarball.toString()), tarball.getParent(), 120);
        if (r.exit() != 0) {
            return null;
        }
        for (String line : r.output().lines().toList()) {
            String l = line.startsWith("./") ? line.substring(2) : line;
            int slash = l.indexOf('/');
            if (slash > 0 && l.substring(slash + 1).equals(c.marker())) {
                return l.substring(0, slash);
            }
        }
        return null;
    }

    private ResolvedSource extract(SourceComponent c, Path tarball, Path workDir, BuildLog log) throws BuildException {
        Path tar = programs.find("tar").orElseThrow(() -> new BuildException("tar is not installed; it is needed to unpack "
                + tarball + " (Debian package tar)"));
        String top = tarballTop(c, tarball);
        if (top == null) {
            throw new BuildException(tarball + " is not a tarball of a " + c.name() + " source tree (no " + c.marker() + " inside)");
        }
        Path dest = workDir.resolve("src").resolve(c.name());
        try {
            Files.createDirectories(dest);
        } catch (IOException e) {
            throw new BuildException("cannot create " + dest + ": " + e.getMessage());
        }
        log.run("unpacking " + tarball.getFileName(), List.of(tar.toString(), "-xf", tarball.toString(), "-C", dest.toString()),
                dest, Map.of(), 300);
        Path tree = dest.resolve(top);
        if (!c.isTree(tree)) {
            throw new BuildException(tarball + " did not unpack into a " + c.name() + " source tree (no " + top + "/" + c.marker() + ")");
        }
        Matcher m = SHORT_COMMIT.matcher(top);
        String commit = m.matches() ? m.group(1) : tagOf(c, top);
        return new ResolvedSource(c, tree, commit, tarball.toString());
    }

    /** A tree named {@code NAME-TAG} (e.g. pyopenssl-26.2.0) holds that tag; otherwise unknown. */
    private static String tagOf(SourceComponent c, String dirName) {
        String prefix = c.name() + "-";
        return dirName.startsWith(prefix) && dirName.length() > prefix.length() ? dirName.substring(prefix.length()) : "unknown";
    }

    /** The commit of a git checkout, or what the directory's name says, or "unknown". */
    private String treeCommit(Path tree) {
        Optional<Path> git = programs.find("git");
        if (git.isPresent() && Files.exists(tree.resolve(".git"))) {
            Result r = Commands.run(List.of(git.get().toString(), "-C", tree.toString(), "rev-parse", "HEAD"), tree, 30);
            if (r.exit() == 0 && r.output().strip().matches("[0-9a-f]{40}")) {
                return r.output().strip();
            }
        }
        String n = tree.getFileName().toString();
        Matcher m = SHORT_COMMIT.matcher(n);
        return m.matches() ? m.group(1) : "unknown";
    }

    private ResolvedSource upstream(SourceComponent c, Path workDir, BuildLog log) throws BuildException {
        String where = "no " + c.name() + " source in " + (given.isEmpty() ? "" : "--source or ")
                + (snapshots == null ? ENVIRONMENT + " (unset)" : snapshots.toString());
        Optional<Path> git = programs.find("git");
        if (git.isEmpty()) {
            throw new BuildException(where + ", and git is not installed to fetch " + c.repository() + " at " + c.shortRef()
                    + " (Debian package git); give --source DIR|TARBALL or set " + ENVIRONMENT + " to a directory of snapshots");
        }
        Path tree = workDir.resolve("src").resolve(c.name());
        String g = git.get().toString();
        try {
            Files.createDirectories(tree);
            log.run("git init", List.of(g, "init", "-q"), tree, Map.of(), 60);
            log.run("fetching " + c.repository() + " at " + c.shortRef(), List.of(g, "-c", "http.lowSpeedLimit=1000",
                    "-c", "http.lowSpeedTime=60", "fetch", "-q", "--depth", "1", c.repository(), c.ref()), tree,
                    Map.of("GIT_TERMINAL_PROMPT", "0"), GIT_TIMEOUT_SECONDS);
            log.run("checking out " + c.shortRef(), List.of(g, "checkout", "-q", "FETCH_HEAD"), tree, Map.of(), 120);
            if (c.submodules()) {
                log.run("fetching " + c.name() + "'s submodules", List.of(g, "submodule", "update", "-q", "--init", "--recursive",
                        "--depth", "1"), tree, Map.of("GIT_TERMINAL_PROMPT", "0"), GIT_TIMEOUT_SECONDS);
            }
        } catch (BuildException | IOException e) {
            throw new BuildException(where + ", and fetching " + c.repository() + " at " + c.shortRef() + " failed ("
                    + (e instanceof BuildException ? log.lastLines(1) : e.getMessage()) + "); give --source DIR|TARBALL or set "
                    + ENVIRONMENT + " to a directory of snapshots", e);
        }
        if (!c.isTree(tree)) {
            throw new BuildException(c.repository() + " at " + c.shortRef() + " has no " + c.marker() + "; it is not the expected tree");
        }
        return new ResolvedSource(c, tree, SourceComponent.isCommit(c.ref()) ? c.ref() : treeCommit(tree), c.repository());
    }

    private static String names(List<SourceComponent> known) {
        List<String> n = new ArrayList<>(known.stream().map(SourceComponent::name).distinct().toList());
        if (n.size() == 1) {
            return n.getFirst();
        }
        String last = n.removeLast();
        return String.join(", ", n) + " or " + last;
    }

    private static String markers(List<SourceComponent> known) {
        return "no " + String.join(", ", known.stream().map(SourceComponent::marker).distinct().toList());
    }
}
