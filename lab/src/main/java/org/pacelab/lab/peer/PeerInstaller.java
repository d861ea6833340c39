package org.pacelab.lab.peer;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.pacelab.lab.host.Commands;
import org.pacelab.lab.host.Host;

/**
 * Makes peers usable: installs the Debian packages they lack ({@code apt-get install --no-install-recommends}, as
 * {@code scripts/install-peers.sh} does for the test suite; needs root). Afterwards the host forgets what it had
 * found, so availability is decided from what is installed now (the first run of a scenario on a fresh machine
 * installs ngtcp2 and runs it, rather than skipping it as missing).
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

    /** What an installation did: the packages it installed, and one sentence per thing it could not do. */
    public record Result(List<String> installed, List<String> problems) {
        public Result {
            installed = List.copyOf(installed);
            problems = List.copyOf(problems);
        }

        public boolean ok() {
            return problems.isEmpty();
        }
    }

    private final Host host;
    private final PacelabLauncher pacelab;
    private final Packages packages;

    public PeerInstaller(Host host, PacelabLauncher pacelab, Packages packages) {
        this.host = host;
        this.pacelab = pacelab;
        this.packages = packages;
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

    /**
     * Installs the packages the peers lack, and {@code extra} packages that are not installed; afterwards the host
     * answers afresh. Does nothing when nothing is missing.
     */
    public Result install(List<Peer> peers, Set<String> extra, PrintStream out) {
        Set<String> pkgs = missingPackages(peers);
        for (String e : extra) {
            if (host.packageVersion(e) == null) {
                pkgs.add(e);
            }
        }
        if (pkgs.isEmpty()) {
            return new Result(List.of(), List.of());
        }
        String why = packages.cannotInstall(host);
        if (why != null) {
            return new Result(List.of(), List.of(why + " (missing: " + String.join(" ", pkgs) + ")"));
        }
        String failure = packages.install(pkgs, out);
        host.forgetInstalled();
        if (failure != null) {
            return new Result(List.of(), List.of(failure));
        }
        return new Result(new ArrayList<>(pkgs), List.of());
    }

    private static String lastLine(String s) {
        List<String> l = s.lines().filter(x -> !x.isBlank()).toList();
        return l.isEmpty() ? "(no output)" : l.getLast();
    }
}
