package org.pacelab.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.pacelab.net.dc.DcFlowMode;
import org.pacelab.net.dc.DcSpec;
import org.pacelab.net.dc.DcSpecParser;
import org.pacelab.net.driver.WarmUp;
import org.pacelab.net.netns.KernelQdisc;
import org.pacelab.net.netns.NetnsException;
import org.pacelab.net.netns.NetnsLab;
import org.pacelab.net.netns.TunMiddlebox;
import org.pacelab.net.spec.LinkSpec;
import org.pacelab.net.spec.LinkSpecParser;
import org.pacelab.net.spec.SpecException;
import org.pacelab.net.spec.Units;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code pacelab netns up|down|run}: the network-namespace middlebox (root). */
@Command(name = "netns", mixinStandardHelpOptions = true,
        description = {"A server and a client network namespace joined through the link emulator (root).",
                "Server " + NetnsLab.SERVER_V4 + " / " + NetnsLab.SERVER_V6 + " in " + NetnsLab.SERVER_NS + ", client "
                        + NetnsLab.CLIENT_V4 + " / " + NetnsLab.CLIENT_V6 + " in " + NetnsLab.CLIENT_NS
                        + "; any IP traffic (UDP, TCP) between them crosses the model."},
        subcommands = {NetnsCommand.Up.class, NetnsCommand.Down.class, NetnsCommand.Run.class})
public final class NetnsCommand implements Runnable {
    @Spec CommandSpec spec;

    @Override
    public void run() { spec.commandLine().usage(spec.commandLine().getOut()); }

    static int fail(CommandSpec spec, String message, int code) {
        spec.commandLine().getErr().println("pacelab netns: " + message);
        return code;
    }

    @Command(name = "up", mixinStandardHelpOptions = true,
            description = {"Creates the namespaces and runs the emulator until Ctrl-C or SIGTERM, then removes everything."})
    static final class Up implements Callable<Integer> {
        /** Packets the link may hold before the middlebox drops new arrivals (bounds memory). */
        private static final int MAX_INSIDE = 1_000_000;
        @Spec CommandSpec spec;
        @Option(names = "--preset", defaultValue = "quic-steps", description = "Link preset (default: ${DEFAULT-VALUE}).") String preset;
        @Option(names = "--down", paramLabel = "SPEC", description = "Overrides for server to client.") String down;
        @Option(names = "--dc", paramLabel = "SPEC", description = "Dual connectivity: two downlink paths, splitter and "
                + "reordering receiver (keys as in 'pacelab emulate --dc'); replaces --preset and --down.") String dc;
        @Option(names = "--path-a", paramLabel = "SPEC", description = "With --dc: link fields of path a.") String pathA;
        @Option(names = "--path-b", paramLabel = "SPEC", description = "With --dc: link fields of path b.") String pathB;
        @Option(names = "--port-path", paramLabel = "PORT=MODE", description = "With --dc: flows whose server-side port is "
                + "PORT use MODE: dc (both paths, default), a or b (repeatable).")
        List<String> portPaths = new ArrayList<>();
        @Option(names = "--up", paramLabel = "SPEC", description = "Overrides for client to server.") String up;
        @Option(names = "--seed", defaultValue = "1") long seed;
        @Option(names = "--tap", converter = PathChecks.OutputFile.class, paramLabel = "FILE", description = "pcapng tap at the server's side.") Path tap;
        @Option(names = "--snaplen", defaultValue = "0") int snaplen;
        @Option(names = "--log", converter = PathChecks.OutputFile.class, paramLabel = "FILE", description = "Per-packet event log.") Path log;
        @Option(names = "--spin", defaultValue = "150us") String spin;
        @Option(names = "--realtime", description = "Run the emulator thread SCHED_FIFO for timing precision (root).") boolean realtime;
        @Option(names = "--warmup", paramLabel = "off|on|PACKETS", defaultValue = "off",
                description = "Before the namespaces are made, run this many synthetic packets (on: " + WarmUp.DEFAULT_PACKETS
                        + ") through two fresh copies of the middlebox over socket pairs of their own, so the measured transfer meets "
                        + "compiled code; nothing of it reaches the namespaces, the tap, the event log or the counters "
                        + "(default: off; pacelab run uses on).")
        String warmup;
        @Option(names = "--kernel-qdisc", paramLabel = "DIR=KIND",
                description = "Let the kernel rate-limit a direction: down=tbf or up=tbf (netem, fq, etf are not offered).")
        List<String> kernelQdisc = new ArrayList<>();

        @Override
        public Integer call() throws Exception {
            LinkSpec link = null;
            DcSpec dcSpec = null;
            Map<Integer, DcFlowMode> modes = new HashMap<>();
            int warmPackets;
            long spinNanos;
            List<String> kernelDirs = new ArrayList<>();
            try {
                if (dc != null) {
                    if (spec.commandLine().getParseResult().hasMatchedOption("--preset")) {
                        throw new SpecException("--preset does not apply with --dc; the paths are --path-a and --path-b "
                                + "and the uplink is --up");
                    }
                    if (down != null) throw new SpecException("--down does not apply with --dc; give the two downlink paths "
                            + "with --path-a and --path-b");
                    if (!kernelQdisc.isEmpty()) throw new SpecException("--kernel-qdisc does not apply with --dc; the paths "
                            + "are always modelled in user space");
                    dcSpec = DcSpecParser.parse(dc, pathA, pathB, up);
                    for (String pp : portPaths) {
                        int eq = pp.indexOf('=');
                        int port;
                        try {
                            port = eq > 0 ? Integer.parseInt(pp.substring(0, eq)) : -1;
                        } catch (NumberFormatException e) {
                            port = -1;
                        }
                        if (port < 1 || port > 65535) throw new SpecException("--port-path: '" + pp + "' is not PORT=MODE "
                                + "with a port from 1 to 65535, e.g. 5202=a");
                        modes.put(port, DcFlowMode.parse("--port-path " + port, pp.substring(eq + 1)));
                    }
                } else {
                    if (pathA != null || pathB != null || !portPaths.isEmpty()) {
                        throw new SpecException("--path-a, --path-b and --port-path need --dc (a dual-connectivity link)");
                    }
                    link = LinkSpecParser.parse(preset, down, up);
                }
                spinNanos = Units.parseDuration("--spin", spin);
                warmPackets = WarmUp.parse("--warmup", warmup);
                for (String k : kernelQdisc) kernelDirs.add(KernelQdisc.parseDirection(k));
                NetnsLab.requireRoot();
            } catch (SpecException | NetnsException e) {
                return fail(spec, e.getMessage(), 2);
            }
            var out = spec.commandLine().getOut();
            try {
                // before the namespaces exist, so nothing of it can reach them
                out.println(warmPackets > 0 ? TunMiddlebox.warmUp(link, dcSpec, modes, seed, tap != null, snaplen, log != null,
                        spinNanos, MAX_INSIDE, warmPackets).describe() : WarmUp.OFF);
                out.flush();
            } catch (SpecException e) {
                return fail(spec, e.getMessage(), 2);
            } catch (IOException e) {
                return fail(spec, "warm-up: " + e.getMessage(), 1);
            }
            NetnsLab.Tuns tuns;
            try {
                tuns = NetnsLab.up();
            } catch (NetnsException e) {
                return fail(spec, e.getMessage(), 1);
            }
            TunMiddlebox box = null;
            CountDownLatch finished = new CountDownLatch(1);
            Thread hook = null;
            try {
                for (String d : kernelDirs) link = KernelQdisc.install(link, d);
                box = new TunMiddlebox(tuns, link, dcSpec, modes, seed, tap, snaplen, log, spinNanos, MAX_INSIDE);
                NetnsLab.writePidFile();
                TunMiddlebox b = box;
                hook = new Thread(() -> {
                    b.stop();
                    try { finished.await(15, TimeUnit.SECONDS); } catch (InterruptedException e) { Thread.currentThread().interrupt(); }
                });
                Runtime.getRuntime().addShutdownHook(hook);
                if (dcSpec != null) {
                    out.println("dc:        " + dcSpec.format());
                    out.println("path a:    " + dcSpec.a().format());
                    out.println("path b:    " + dcSpec.b().format());
                    out.println("link up:   " + dcSpec.up().format());
                    modes.forEach((port, mode) -> out.println("port " + port + ": " + (mode == DcFlowMode.DUAL ? "both paths"
                            : "path " + mode.label())));
                } else {
                    out.println("link down: " + link.down().format() + (kernelDirs.contains("down") ? " (rate limit: kernel tbf)" : ""));
                    out.println("link up:   " + link.up().format() + (kernelDirs.contains("up") ? " (rate limit: kernel tbf)" : ""));
                }
                out.printf("ready: server %s / %s in %s, client %s / %s in %s; run commands with 'pacelab netns run --ns "
                                + "server|client -- CMD', stop with Ctrl-C or 'pacelab netns down'%n",
                        NetnsLab.SERVER_V4, NetnsLab.SERVER_V6, NetnsLab.SERVER_NS, NetnsLab.CLIENT_V4, NetnsLab.CLIENT_V6,
                        NetnsLab.CLIENT_NS);
                out.flush();
                box.run(realtime);
                return 0;
            } catch (NetnsException | SpecException e) {
                return fail(spec, e.getMessage(), 1);
            } finally {
                try {
                    if (box != null) box.close();
                } catch (IOException e) {
                    spec.commandLine().getErr().println("pacelab netns: " + e.getMessage());
                }
                tuns.close();
                NetnsLab.deletePidFile();
                List<String> removed = NetnsLab.down(false);
                if (box != null) out.print(box.report());
                out.println("removed: " + (removed.isEmpty() ? "nothing left" : String.join(", ", removed)));
                out.flush();
                finished.countDown();
                if (hook != null) {
                    try { Runtime.getRuntime().removeShutdownHook(hook); } catch (IllegalStateException signal) { /* shutting down */ }
                }
            }
        }
    }

    @Command(name = "down", mixinStandardHelpOptions = true,
            description = "Stops a running lab and removes its namespaces; --all removes everything named " + NetnsLab.PREFIX + "*.")
    static final class Down implements Callable<Integer> {
        @Spec CommandSpec spec;
        @Option(names = "--all", description = "Also remove any namespace or link whose name starts with " + NetnsLab.PREFIX + ".")
        boolean all;

        @Override
        public Integer call() {
            try {
                NetnsLab.requireRoot();
                List<String> removed = NetnsLab.down(all);
                spec.commandLine().getOut().println(removed.isEmpty() ? "nothing to remove" : "removed: " + String.join(", ", removed));
                List<String> left = NetnsLab.leftovers();
                if (!left.isEmpty()) {
                    return fail(spec, "still present: " + String.join(", ", left) + (all ? "" : "; use --all"), 1);
                }
                return 0;
            } catch (NetnsException e) {
                return fail(spec, e.getMessage(), 2);
            }
        }
    }

    @Command(name = "run", mixinStandardHelpOptions = true,
            description = "Runs a command inside the server or client namespace, e.g. 'pacelab netns run --ns client -- curl ...'.")
    static final class Run implements Callable<Integer> {
        @Spec CommandSpec spec;
        @Option(names = "--ns", required = true, paramLabel = "server|client") String role;
        @Parameters(arity = "1..*", paramLabel = "CMD") List<String> command;

        @Override
        public Integer call() throws Exception {
            String ns;
            try {
                NetnsLab.requireRoot();
                ns = NetnsLab.namespace(role);
                if (!java.nio.file.Files.exists(Path.of("/run/netns", ns))) {
                    return fail(spec, "namespace " + ns + " does not exist; start the lab with 'pacelab netns up' first", 1);
                }
            } catch (NetnsException e) {
                return fail(spec, e.getMessage(), 2);
            }
            List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", ns));
            cmd.addAll(command);
            Process p = new ProcessBuilder(cmd).inheritIO().start();
            return p.waitFor();
        }
    }
}
