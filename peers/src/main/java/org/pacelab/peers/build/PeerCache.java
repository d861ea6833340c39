package org.pacelab.peers.build;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * The per-user cache of peers pacelab builds ({@code $PACELAB_PEER_CACHE}, else {@code $XDG_CACHE_HOME/pacelab/peers},
 * else {@code ~/.cache/pacelab/peers}). Each build lives in {@code PEER-ID/} (ID: the short commits of its sources);
 * {@code PEER} is a symbolic link to the one in use. A build is made in a staging directory beside them and appears
 * only when complete, by a rename and an atomic replacement of the link, so a crash or a failed build leaves nothing
 * half-built in use; staging directories of interrupted builds are removed by the next install of that peer.
 */
public final class PeerCache {
    public static final String ENVIRONMENT = "PACELAB_PEER_CACHE";
    private static final String STAGING = ".staging-";

    private final Path root;

    public PeerCache(Path root) {
        this.root = root.toAbsolutePath().normalize();
    }

    /** The cache this user's environment names. */
    public static PeerCache standard() {
        return of(System.getenv(), System.getProperty("user.home"));
    }

    static PeerCache of(Map<String, String> env, String home) {
        String explicit = env.get(ENVIRONMENT);
        if (explicit != null && !explicit.isBlank()) {
            return new PeerCache(Path.of(explicit));
        }
        String xdg = env.get("XDG_CACHE_HOME");
        Path base = xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute() ? Path.of(xdg) : Path.of(home, ".cache");
        return new PeerCache(base.resolve("pacelab").resolve("peers"));
    }

    public Path root() {
        return root;
    }

    /** The build of the peer in use, if there is a complete one. */
    public Optional<InstalledBuild> installed(String peer) {
        Path link = root.resolve(peer);
        Path record = link.resolve(InstalledBuild.RECORD);
        if (!Files.isRegularFile(record)) {
            return Optional.empty();
        }
        try {
            return Optional.of(new InstalledBuild(peer, link.toRealPath(), read(record)));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** A finished build of the peer with this id, if there is one (in use or not). */
    Optional<InstalledBuild> build(String peer, String id) {
        Path dir = root.resolve(peer + "-" + id);
        Path record = dir.resolve(InstalledBuild.RECORD);
        if (!Files.isRegularFile(record)) {
            return Optional.empty();
        }
        try {
            return Optional.of(new InstalledBuild(peer, dir, read(record)));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** What a build does in its (empty) staging directory; returns the record entries it adds. */
    @FunctionalInterface
    public interface Work {
        Properties build(Path staging) throws BuildException;
    }

    /** Something that needs the peer's lock held. */
    @FunctionalInterface
    public interface Locked<T> {
        T run() throws BuildException;
    }

    /** Runs {@code action} holding the peer's lock (one install of a peer at a time, across processes). */
    public <T> T locked(String peer, Locked<T> action) throws BuildException {
        try {
            Files.createDirectories(root);
        } catch (IOException e) {
            throw new BuildException("cannot create the peer cache " + root + ": " + e.getMessage() + "; set " + ENVIRONMENT
                    + " to a writable directory");
        }
        Path lockFile = root.resolve("." + peer + ".lock");
        try (FileChannel ch = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
             FileLock lock = ch.lock()) {
            removeStaging(peer);
            return action.run();
        } catch (IOException e) {
            throw new BuildException("cannot lock " + lockFile + ": " + e.getMessage());
        }
    }

    /**
     * Builds into a staging directory and publishes the result as {@code PEER-ID}, then points {@code PEER} at it. The
     * caller holds the peer's lock ({@link #locked}). On failure the staging directory is removed and the build in use
     * stays as it was.
     */
    public InstalledBuild publish(String peer, String id, Work work) throws BuildException {
        Path staging = root.resolve(STAGING + peer + "-" + UUID.randomUUID());
        Path target = root.resolve(peer + "-" + id);
        boolean published = false;
        try {
            Files.createDirectories(staging);
            Properties record = work.build(staging);
            record.setProperty("peer", peer);
            record.setProperty("id", id);
            write(staging.resolve(InstalledBuild.RECORD), record);
            Path old = null;
            if (Files.exists(target)) {
                old = root.resolve(STAGING + peer + "-replaced-" + UUID.randomUUID());
                move(target, old);
            }
            move(staging, target);
            published = true;
            link(peer, target);
            if (old != null) {
                deleteTree(old);
            }
            return new InstalledBuild(peer, target, record);
        } catch (IOException e) {
            throw new BuildException("cannot write " + peer + "'s build into " + root + ": " + e.getMessage());
        } finally {
            if (!published) {
                deleteQuietly(staging);
            }
        }
    }

    /** Points the peer's link at an existing build (reuse of an earlier build of the same sources). */
    public InstalledBuild use(InstalledBuild build) throws BuildException {
        try {
            link(build.peer(), build.dir());
        } catch (IOException e) {
            throw new BuildException("cannot update " + root.resolve(build.peer()) + ": " + e.getMessage());
        }
        return installed(build.peer()).orElse(build);
    }

    private void link(String peer, Path target) throws IOException {
        Path link = root.resolve(peer);
        Path tmp = root.resolve(STAGING + peer + "-link-" + UUID.randomUUID());
        Files.createSymbolicLink(tmp, target.getFileName());
        try {
            Files.move(tmp, link, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            Files.deleteIfExists(tmp);
            throw e;
        }
    }

    private static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            throw new IOException("the cache's file system cannot rename " + from + " atomically", e);
        }
    }

    private void removeStaging(String peer) {
        try (Stream<Path> s = Files.list(root)) {
            for (Path p : s.filter(q -> q.getFileName().toString().startsWith(STAGING + peer + "-")).toList()) {
                deleteQuietly(p);
            }
        } catch (IOException e) {
            // a leftover staging directory only takes space
        }
    }

    static Properties read(Path file) throws IOException {
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            p.load(in);
        }
        return p;
    }

    private static void write(Path file, Properties p) throws IOException {
        try (OutputStream out = Files.newOutputStream(file)) {
            p.store(out, "pacelab peer build");
        }
    }

    static void deleteTree(Path p) throws IOException {
        if (!Files.exists(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> s = Files.walk(p)) {
            for (Path q : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(q);
            }
        }
    }

    static void deleteQuietly(Path p) {
        try {
            deleteTree(p);
        } catch (IOException e) {
            // left for the next install of the peer, which removes staging directories
        }
    }
}
