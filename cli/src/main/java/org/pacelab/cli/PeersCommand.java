package org.pacelab.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;

import org.pacelab.lab.host.Host;
import org.pacelab.lab.peer.Availability;
import org.pacelab.lab.peer.PacelabLauncher;
import org.pacelab.lab.peer.Peer;
import org.pacelab.lab.peer.PeerInstaller;
import org.pacelab.lab.peer.PeerOption;
import org.pacelab.lab.peer.PeerRegistry;
import org.pacelab.lab.peer.Role;
import org.pacelab.lab.scenario.Mode;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code pacelab peers [install]}: which implementations the runner can drive here, and installing Debian ones. */
@Command(name = "peers", mixinStandardHelpOptions = true,
        description = {"Lists the implementations scenarios can name, whether each is usable here and why not,",
                "its roles, modes, options and version."},
        subcommands = PeersCommand.Install.class)
public final class PeersCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        Host host = new Host();
        PacelabLauncher pacelab = Launchers.current();
        for (Peer p : PeerRegistry.standard().all()) {
            List<String> problems = new ArrayList<>();
            for (Role r : p.roles()) {
                Availability a = p.availability(r, host, pacelab);
                if (!a.usable()) {
                    problems.add(r.word() + ": " + a.reason());
                }
            }
            out.printf("%-9s %s%n", p.name(), problems.isEmpty() ? "usable" : "NOT USABLE: " + String.join("; ", problems));
            out.printf("          %s%n", p.summary());
            out.printf("          roles: %s; modes: %s; speaks %s%n", String.join(", ", p.roles().stream().map(Role::word).toList()),
                    String.join(", ", p.modes().stream().map(Mode::word).toList()), p.protocol().description());
            if (problems.isEmpty()) {
                out.printf("          version: %s%n", p.version(p.roles().iterator().next(), host, pacelab));
            }
            for (Role r : p.roles()) {
                List<PeerOption> opts = p.options(r);
                if (!opts.isEmpty()) {
                    out.printf("          %s options: %s%n", r.word(), String.join(", ", opts.stream().map(PeerOption::name).toList()));
                }
            }
            if (p.caveat() != null) {
                out.printf("          note: %s%n", p.caveat());
            }
        }
        out.println("Also: qdisc (none, fq, etf) is a server option of every peer, applied to the server's host "
                + "(netns mode with kernel support, or sim).");
        Set<String> missing = new PeerInstaller(host, pacelab, PeerInstaller.APT).missingPackages(PeerRegistry.standard().all());
        if (!missing.isEmpty()) {
            out.println("Missing Debian packages: " + String.join(" ", missing) + " — install them with 'pacelab peers install' (root).");
        }
        out.flush();
        return 0;
    }

    @Command(name = "install", mixinStandardHelpOptions = true,
            description = {"Installs the Debian packages of peers that are not usable here (apt-get; needs root).",
                    "Without names: every Debian peer (ngtcp2, nginx, curl, chromium)."})
    static final class Install implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(paramLabel = "PEER", arity = "0..*", description = "peers to install (default: all Debian peers)")
        List<String> names = new ArrayList<>();

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            PeerRegistry registry = PeerRegistry.standard();
            List<Peer> peers = new ArrayList<>();
            for (String n : names) {
                Peer p = registry.get(n).orElse(null);
                if (p == null) {
                    err.println("pacelab peers install: unknown peer '" + n + "'; valid: " + String.join(", ", registry.names()));
                    return 2;
                }
                peers.add(p);
            }
            if (peers.isEmpty()) {
                peers.addAll(registry.all());
            }
            Host host = new Host();
            PacelabLauncher pacelab = Launchers.current();
            PeerInstaller installer = new PeerInstaller(host, pacelab, PeerInstaller.APT);
            Set<String> pkgs = installer.missingPackages(peers);
            if (pkgs.isEmpty()) {
                out.println("nothing to install: every Debian peer asked for is installed");
                return 0;
            }
            PeerInstaller.Result r = installer.install(peers, Set.of(), new java.io.PrintStream(System.out, true));
            if (!r.ok()) {
                r.problems().forEach(p -> err.println("pacelab peers install: " + p));
                return 1;
            }
            out.println("installed: " + String.join(" ", pkgs));
            return 0;
        }
    }
}
