package org.pacelab.peers.build;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * Installs a peer into the cache: reuses the build in use (or an earlier build of the same sources), otherwise checks
 * the tools, resolves the sources ({@link PeerSources}), builds in a staging directory, checks that the result runs
 * and publishes it atomically ({@link PeerCache}). Whatever fails, the cache holds nothing of the attempt; the build
 * log stays in the temporary directory and the sentence names it.
 */
public final class PeerBuilder {
    /** An install's result: the build in use, and whether it was there already. */
    public record Outcome(InstalledBuild build, boolean reused) {}

    private final PeerCache cache;
    private final PeerSources sources;
    private final Programs programs;
    private final PrintStream out;

    public PeerBuilder(PeerCache cache, PeerSources sources, Programs programs, PrintStream out) {
        this.cache = cache;
        this.sources = sources;
        this.programs = programs;
        this.out = out;
    }

    public PeerCache cache() {
        return cache;
    }

    /** Whether sources were named on the command line (then peers are built from them even when built already). */
    public boolean explicitSources() {
        return sources.explicit();
    }

    /** Checks the {@code --source} values and {@code PACELAB_PEER_SOURCES} against every component of these builds. */
    public void checkSources(List<PeerBuild> builds) throws BuildException {
        List<SourceComponent> known = new ArrayList<>();
        for (PeerBuild b : builds) {
            known.addAll(b.components());
        }
        if (!known.isEmpty()) {
            sources.check(known);
        }
    }

    /**
     * Installs the peer. Without {@code rebuild} and without {@code --source} values, a complete build in use is kept;
     * with them, the sources are resolved and an earlier build of the same commits is reused.
     */
    public Outcome install(PeerBuild b, boolean rebuild) throws BuildException {
        String peer = b.peer();
        return cache.locked(peer, () -> {
            if (!rebuild && !sources.explicit()) {
                Optional<InstalledBuild> current = cache.installed(peer);
                String identity = b.identity(programs);
                // a build for another Python, Debian package or version of pacelab's own programs is built again
                if (current.isPresent() && b.check(current.get()) == null
                        && (identity.isEmpty() || current.get().id().endsWith(identity))) {
                    return new Outcome(current.get(), true);
                }
            }
            for (Tool t : b.tools()) {
                if (programs.find(t.program()).isEmpty()) {
                    throw new BuildException(t.missing(peer) + "; install it (as root: apt-get install " + t.debianPackage()
                            + ", or 'pacelab peers install " + peer + "') and try again");
                }
            }
            String missing = b.missingPrerequisite(programs);
            if (missing != null) {
                throw new BuildException(missing);
            }
            Path work;
            Path logFile;
            try {
                work = Files.createTempDirectory("pacelab-build-" + peer + "-");
                logFile = Files.createTempFile("pacelab-build-" + peer + "-", ".log");
            } catch (IOException e) {
                throw new BuildException("cannot create a temporary directory to build " + peer + ": " + e.getMessage());
            }
            BuildLog log = new BuildLog(peer, logFile);
            boolean ok = false;
            try {
                Map<String, ResolvedSource> resolved = new LinkedHashMap<>();
                List<String> ids = new ArrayList<>();
                boolean known = true;
                for (SourceComponent c : b.components()) {
                    ResolvedSource r = sources.resolve(c, work, log);
                    resolved.put(c.name(), r);
                    ids.add(r.shortCommit());
                    known &= !r.commit().equals("unknown");
                    if (!r.commit().equals("unknown") && !c.ref().startsWith(r.commit()) && !r.commit().startsWith(c.shortRef())) {
                        out.println(peer + ": building " + c.name() + " at " + r.shortCommit() + " from " + r.origin()
                                + ", not at the pinned " + c.shortRef());
                    }
                }
                String identity = b.identity(programs);
                if (!identity.isEmpty()) {
                    ids.add(identity);
                }
                String id = known ? String.join("+", ids)
                        : "local-" + Instant.now().truncatedTo(ChronoUnit.SECONDS).toString().replace(":", "");
                if (!rebuild && known) {
                    Optional<InstalledBuild> earlier = cache.build(peer, id);
                    if (earlier.isPresent() && b.check(earlier.get()) == null) {
                        ok = true;
                        return new Outcome(cache.use(earlier.get()), true);
                    }
                }
                out.println("building " + peer + " " + id + " into " + cache.root() + " ...");
                int jobs = Math.max(1, Runtime.getRuntime().availableProcessors());
                InstalledBuild built = cache.publish(peer, id, staging -> {
                    Properties record = b.build(new PeerBuild.Context(resolved, staging, work, log, programs, jobs));
                    for (ResolvedSource r : resolved.values()) {
                        String k = "source." + r.component().name();
                        record.setProperty(k + ".commit", r.commit());
                        record.setProperty(k + ".origin", r.origin());
                        record.setProperty(k + ".licence", r.component().licence());
                        record.setProperty(k + ".upstream", r.component().repository());
                    }
                    record.setProperty("built", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
                    String broken = b.check(new InstalledBuild(peer, staging, record));
                    if (broken != null) {
                        throw new BuildException(peer + " was built but does not run: " + broken + " (the build log is " + logFile + ")");
                    }
                    return record;
                });
                ok = true;
                return new Outcome(built, false);
            } finally {
                PeerCache.deleteQuietly(work);
                if (ok) {
                    try {
                        Files.deleteIfExists(logFile);
                    } catch (IOException e) {
                        // a log in the temporary directory
                    }
                }
            }
        });
    }
}
