package org.pacelab.cli;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
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
import org.pacelab.lab.peer.Protocol;
import org.pacelab.lab.peer.Role;
import org.pacelab.lab.scenario.Mode;
import org.pacelab.lab.scenario.ScenarioException;
import org.pacelab.lab.scenario.ScenarioReader;
import org.pacelab.peers.build.BuildException;
import org.pacelab.peers.build.PeerBuild;
import org.pacelab.peers.build.PeerBuilder;
import org.pacelab.peers.build.PeerCache;
import org.pacelab.peers.build.PeerSources;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code pacelab peers [install]}: which implementations the runner can drive here (version, source commits, usable
 * or why not), and installing them: Debian packages with apt-get (root), the peers pacelab builds from pinned
 * sources into the per-user peer cache.
 */
@Command(name = "peers", mixinStandardHelpOptions = true,
        description = {"Lists the implementations scenarios can name, whether each is usable here and why not,",
                "its version (with source commits for the peers pacelab builds), roles, modes and options."},
        subcommands = PeersCommand.Install.class)
public final class PeersCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--scenario", paramLabel = "FILE", description = "also list the peers this scenario declares by command line")
    Path scenario;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        Host host = new Host();
        PacelabLauncher pacelab = Launchers.current();
        PeerRegistry registry;
        try {
            registry = scenario == null ? PeerRegistry.standard() : PeerRegistry.forScenario(ScenarioReader.read(scenario));
        } catch (ScenarioException e) {
            e.problems().forEach(p -> spec.commandLine().getErr().println("pacelab peers: " + p));
            return 2;
        }
        for (Peer p : registry.all()) {
            List<String> problems = new ArrayList<>();
            for (Role r : p.roles()) {
                Availability a = p.availability(r, host, pacelab);
                if (!a.usable()) {
                    String why = r.word() + ": " + a.reason();
                    if (problems.stream().noneMatch(q -> q.endsWith(": " + a.reason()))) {
                        problems.add(why);
                    }
                }
            }
            out.printf("%-9s %s%n", p.name(), problems.isEmpty() ? "usable" : "NOT USABLE: " + String.join("; ", problems));
            out.printf("          %s%n", p.summary());
            out.printf("          roles: %s; modes: %s; speaks %s%n", String.join(", ", p.roles().stream().map(Role::word).toList()),
                    String.join(", ", p.modes().stream().map(Mode::word).toList()), Protocol.describe(p.protocols()));
            out.printf("          version: %s%n", p.version(p.roles().iterator().next(), host, pacelab));
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
        Set<String> missing = new PeerInstaller(host, pacelab, PeerInstaller.APT).missingPackages(registry.all());
        if (!missing.isEmpty()) {
            out.println("Missing Debian packages: " + String.join(" ", missing) + " — 'pacelab peers install' installs them (root).");
        }
        out.println("Peers pacelab builds live in " + PeerCache.standard().root() + " (" + PeerCache.ENVIRONMENT + " changes it).");
        out.flush();
        return 0;
    }

    @Command(name = "install", mixinStandardHelpOptions = true,
            description = {"Makes peers usable: installs their Debian packages (apt-get; needs root) and builds the peers",
                    "pacelab builds (picoquic, aioquic, quic-go) from pinned sources into the peer cache (no root needed).",
                    "Sources, in this order: --source, the directory " + PeerSources.ENVIRONMENT + " names, the pinned",
                    "upstream commits (git, when the network allows). A build that is there is reused.",
                    "Without names: every peer."},
            footer = {"", "Example: pacelab peers install picoquic --source ../shared/peer-sources"})
    static final class Install implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(paramLabel = "PEER", arity = "0..*", description = "peers to install (default: all)")
        List<String> names = new ArrayList<>();

        @Option(names = "--source", paramLabel = "DIR|TARBALL",
                description = "a directory of source snapshots (e.g. picoquic-d199d45be869.tar.gz), a source tree, or a "
                        + "tarball of one; may be given several times")
        List<Path> sources = new ArrayList<>();

        @Option(names = "--rebuild", description = "build again even when a build is there")
        boolean rebuild;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            PeerRegistry registry = PeerRegistry.standard();
            List<Peer> peers = new ArrayList<>();
            for (String n : names) {
                Peer p = registry.get(n).orElse(null);
                if (p == null) {
                    err.println("pacelab peers install: unknown peer '" + n + "'" + org.pacelab.lab.scenario.Suggestions.didYouMean(n,
                            registry.names()) + "; valid: " + String.join(", ", registry.names()));
                    return 2;
                }
                peers.add(p);
            }
            if (peers.isEmpty()) {
                peers.addAll(registry.all());
            }
            Host host = new Host();
            PacelabLauncher pacelab = Launchers.current();
            out.flush();
            PrintStream progress = new PrintStream(System.out, true, StandardCharsets.UTF_8);
            PeerBuilder builder = new PeerBuilder(PeerCache.standard(), PeerSources.of(sources, System.getenv(), host.programs()),
                    host.programs(), progress);
            List<PeerBuild> builds = peers.stream().map(Peer::build).filter(b -> b != null).toList();
            try {
                builder.checkSources(builds.isEmpty() ? registry.all().stream().map(Peer::build).filter(b -> b != null).toList() : builds);
            } catch (BuildException e) {
                err.println("pacelab peers install: " + e.getMessage());
                return 2;
            }
            PeerInstaller installer = new PeerInstaller(host, pacelab, PeerInstaller.APT, builder);
            PeerInstaller.Result r = installer.install(peers, Set.of(), rebuild ? PeerInstaller.Builds.REBUILD
                    : names.isEmpty() ? PeerInstaller.Builds.MISSING : PeerInstaller.Builds.ALL, progress);
            if (!r.ok()) {
                r.all().forEach(p -> err.println("pacelab peers install: " + p));
                return 1;
            }
            out.println(r.installed().isEmpty() ? "nothing to install: every peer asked for is usable"
                    : "installed: " + String.join(" ", r.installed()));
            return 0;
        }
    }
}
