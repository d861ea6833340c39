package org.pacelab.lab.peer;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.pacelab.lab.host.Commands;
import org.pacelab.lab.host.Host;

/**
 * Installs the Debian packages that make peers usable ({@code apt-get install --no-install-recommends}, as
 * {@code scripts/install-peers.sh} does for the test suite). Needs root and apt-get; otherwise it says so.
 */
public final class PeerInstaller {
    private PeerInstaller() {}

    /** The Debian packages the given peers lack here. */
    public static Set<String> missingPackages(List<Peer> peers, Host host, PacelabLauncher pacelab) {
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
    public static String cannotInstall(Host host) {
        if (!host.isRoot()) {
            return "installing Debian packages needs root";
        }
        if (host.which("apt-get").isEmpty()) {
            return "this system has no apt-get (pacelab installs peers only on Debian and Ubuntu)";
        }
        return null;
    }

    /** Installs the packages; returns null on success or one sentence on failure. Progress goes to {@code out}. */
    public static String install(Set<String> packages, Host host, PrintStream out) {
        if (packages.isEmpty()) {
            return null;
        }
        String why = cannotInstall(host);
        if (why != null) {
            return why;
        }
        out.println("installing " + String.join(" ", packages) + " with apt-get ...");
        Commands.Result update = Commands.run(900, List.of("apt-get", "update", "-qq"));
        if (!update.ok()) {
            return "apt-get update failed: " + lastLine(update.output());
        }
        List<String> cmd = new ArrayList<>(List.of("apt-get", "install", "-y", "-qq", "--no-install-recommends"));
        cmd.addAll(packages);
        Commands.Result r = Commands.run(1800, cmd, List.of("DEBIAN_FRONTEND=noninteractive"));
        return r.ok() ? null : "apt-get install " + String.join(" ", packages) + " failed: " + lastLine(r.output());
    }

    private static String lastLine(String s) {
        List<String> l = s.lines().filter(x -> !x.isBlank()).toList();
        return l.isEmpty() ? "(no output)" : l.getLast();
    }
}
