package org.pacelab.lab.peer;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.pacelab.peers.build.Commands;
import org.pacelab.lab.host.Host;
import org.pacelab.peers.build.BuildException;
import org.pacelab.peers.build.PeerBuilder;

/**
 * Makes peers usable: installs the Debian packages they (and their builds) lack ({@code apt-get install
 * --no-install-recommends}, as {@code scripts/install-peers.sh} does for the test suite; needs root), then builds the
 * peers pacelab builds from pinned sources into the peer cache ({@link PeerBuilder}; no root needed). Afterwards the
 * host forgets what it had found, so availability is decided from what is installed now (the first run of a
 * scenario on a fresh machine installs ngtcp2 and runs it, rather than skipping it as missing).
 */
public final class PeerInstaller {
    /** A system package manager. */
    public interface Packages {
        /** Why packages cannot be installed on this host, or null when they can. */
        String cannotInstall(Host host);

        /** Installs the packages; null on success, else one sentence. Progress goes to {@code out}. */
        String install(Set<String> packages, PrintStream out);
    }

    /** Debian's apt-get (root only). */
    public static final Packages APT = new Packages() {
        @Override
        public String cannotInstall(Host host) {
            if (!host.isRoot()) {
                return "installing Debian packages needs root";
            }
            if (host.which("apt-get").isEmpty()) {
                return "this system has no apt-get (pacelab installs peers only on Debian and Ubuntu)";
            }
            return null;
        }

        @Override
        public String install(Set<String> packages, PrintStream out) {
            out.println("installing " + String.join(" ", packages) + " with apt-get ...");
            Commands.Result update = Commands.run(900, List.of("apt-get", "update", "-qq"));
            if (!update.ok()) {
                return "apt-get update failed: " + lastLine(update.output());
            }
            List<String> cmd = new ArrayList<>(List.of("apt-get", "-o", "DPkg::Lock::Timeout=900", "install", "-y", "-qq",
                    "--no-install-recommends"));
            cmd.addAll(packages);
            Commands.Result r = Commands.run(1800, cmd, List.of("DEBIAN_FRONTEND=noninteractive"));
            return r.ok() ? null : "apt-get install " + String.join(" ", packages) + " failed: " + lastLine(r.output());
        }
    };

    /**
     * What an installation did: the packages it installed and peers it built (or found built), why Debian packages
     * were not installed (null when none were missing or they were), and one sentence per thing that failed.
     */
    public record Result(List<String> installed, String packagesNotInstalled, List<String> problems) {
        public Result {
            installed = List.copyOf(installed);
            problems = List.copyOf(problems);
        }

        public boolean ok() {
            return problems.isEmpty() && packagesNotInstalled == null;
        }

        /** Every sentence: why packages were not installed, then the failures. */
        public List<String> all() {
            List<String> a = new ArrayList<>();
            if (packagesNotInstalled != null) {
                a.add(packagesNotInstalled);
            }
            a.addAll(problems);
            return a;
        }
    }

    private final Host host;
    private final PacelabLauncher pacelab;
    private final Packages packages;
    private final PeerBuilder builder;

    /** Installs Debian packages only. */
    public PeerInstaller(Host host, PacelabLauncher pacelab, Packages packages) {
        this(host, pacelab, packages, null);
    }

    /** @param builder builds the peers that have a {@link Peer#build()}, or null to build nothing */
    public PeerInstaller(Host host, PacelabLauncher pacelab, Packages packages, PeerBuilder builder) {
        this.host = host;
        this.pacelab = pacelab;
        this.packages = packages;
        this.builder = builder;
    }

    /** The Debian packages the given peers lack here. */
    public Set<String> missingPackages(List<Peer> peers) {
        Set<String> pkgs = new LinkedHashSet<>();
        for (Peer p : peers) {
            for (Role r : p.roles()) {
                Availability a = p.availability(r, host, pacelab);
                if (!a.usable()) {
                    pkgs.addAll(a.debianPackages());
                }
            }
        }
        return pkgs;
    }

    /** Why packages cannot be installed here, or null when they can. */
    public String cannotInstall() {
        return packages.cannotInstall(host);
    }

    /** Which of the peers pacelab builds an installation builds. */
    public enum Builds {
        /** those not built yet (or all, when sources were named) */
        MISSING,
        /** every one asked for: a build that is there is reused and said so */
        ALL,
        /** every one asked for, from scratch */
        REBUILD
    }

    /**
     * Installs the packages the peers lack, and {@code extra} packages that are not installed; then builds the peers
     * pacelab builds ({@code builds} says which); afterwards the host answers afresh.
     */
    public Result install(List<Peer> peers, Set<String> extra, Builds builds, PrintStream out) {
        boolean rebuild = builds == Builds.REBUILD;
        List<Peer> toBuild = new ArrayList<>();
        if (builder != null) {
            for (Peer p : peers) {
                if (p.build() != null && (builds != Builds.MISSING || builder.explicitSources() || !usable(p))) {
                    toBuild.add(p);
                }
            }
        }
        Set<String> pkgs = missingPackages(peers);
        for (Peer p : toBuild) {
            for (String pkg : p.build().debianPackages()) {
                if (host.packageVersion(pkg) == null) {
                    pkgs.add(pkg);
                }
            }
        }
        for (String e : extra) {
            if (host.packageVersion(e) == null) {
                pkgs.add(e);
            }
        }
        List<String> installed = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        String notInstalled = null;
        if (!pkgs.isEmpty()) {
            String why = packages.cannotInstall(host);
            if (why != null) {
                notInstalled = why + " (missing: " + String.join(" ", pkgs) + ")";
            } else {
                String failure = packages.install(pkgs, out);
                host.forgetInstalled();
                if (failure != null) {
                    problems.add(failure);
                } else {
                    installed.addAll(pkgs);
                }
            }
        }
        for (Peer p : toBuild) {
            long t0 = System.nanoTime();
            try {
                PeerBuilder.Outcome o = builder.install(p.build(), rebuild);
                String version = p.version(p.roles().iterator().next(), host, pacelab);
                out.println(o.reused() ? p.name() + ": already built, reused: " + version + " in " + o.build().dir()
                        : String.format(java.util.Locale.ROOT, "%s: built in %.0f s: %s in %s", p.name(),
                        (System.nanoTime() - t0) / 1e9, version, o.build().dir()));
                installed.add(p.name());
            } catch (BuildException e) {
                problems.add(e.getMessage());
            }
        }
        host.forgetInstalled();
        return new Result(installed, notInstalled, problems);
    }

    private boolean usable(Peer p) {
        return p.roles().stream().allMatch(r -> p.availability(r, host, pacelab).usable());
    }

    private static String lastLine(String s) {
        List<String> l = s.lines().filter(x -> !x.isBlank()).toList();
        return l.isEmpty() ? "(no output)" : l.getLast();
    }
}
