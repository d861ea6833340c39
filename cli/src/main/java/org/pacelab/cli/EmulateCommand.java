package org.pacelab.cli;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.pacelab.net.dc.DcFlowMode;
import org.pacelab.net.dc.DcSpec;
import org.pacelab.net.dc.DcSpecParser;
import org.pacelab.net.driver.WarmUp;
import org.pacelab.net.relay.RelayConfig;
import org.pacelab.net.relay.RelayRoute;
import org.pacelab.net.relay.UdpRelay;
import org.pacelab.net.spec.LinkSpec;
import org.pacelab.net.spec.LinkSpecParser;
import org.pacelab.net.spec.SpecException;
import org.pacelab.net.spec.Units;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code pacelab emulate}: the UDP relay front-end of the link emulator. */
@Command(name = "emulate", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Relays UDP between clients and a server through the link model (no privileges needed).",
                "Clients send to --listen; each client address gets its own socket toward --to.",
                "Link specs are whitespace-separated key=value fields over the preset, e.g. "
                        + "--down \"rate=40mbit delay=20ms queue=143p\"; keys: " + LinkSpecParser.KEYS + ".",
                "Dual connectivity (--dc): two downlink paths behind a splitter and a reordering receiver, one uplink, e.g. "
                        + "--dc \"batch=100 ratio=9:1\" --path-a \"rate=40mbit\" --path-b \"rate=8mbit delay=30ms\"; "
                        + "--dc keys: " + DcSpecParser.KEYS + "."},
        footer = {"", "Several client/server pairs share the link with --route LISTEN=SERVER[@MODE] (repeatable); with --dc, "
                + "MODE dc splits that route's flows as --dc says (default), a or b keeps them on one path.",
                "Presets: quic-steps (QUIC Steps study: tbf 40 Mbit/s + netem 20 ms sharing a 143-packet limit; uplink 20 ms),",
                "interop-simple-p2p (QUIC Interop Runner ns-3 simple-p2p: 10 Mbit/s, 15 ms, 25-packet queue), none.",
                "Stops cleanly on Ctrl-C or SIGTERM and prints counters and timing."})
public final class EmulateCommand implements java.util.concurrent.Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(names = "--listen", required = true, converter = SocketAddressConverter.class, paramLabel = "ADDR:PORT",
            description = "Address clients send to, e.g. 127.0.0.1:4433.")
    InetSocketAddress listen;

    @Option(names = "--to", required = true, converter = SocketAddressConverter.class, paramLabel = "ADDR:PORT",
            description = "The server's address, e.g. 127.0.0.1:14433.")
    InetSocketAddress to;

    @Option(names = "--preset", defaultValue = "quic-steps", paramLabel = "NAME", description = "Link preset (default: ${DEFAULT-VALUE}).")
    String preset;

    @Option(names = "--down", paramLabel = "SPEC", description = "Overrides for the server-to-client direction.")
    String down;

    @Option(names = "--up", paramLabel = "SPEC", description = "Overrides for the client-to-server direction.")
    String up;

    @Option(names = "--dc", paramLabel = "SPEC",
            description = "Dual connectivity: split the downlink over two paths (split, batch, ratio, t-reordering, "
                    + "reordering, single-path, sn, wire, a.KEY, b.KEY, up.KEY); replaces --preset and --down.")
    String dc;

    @Option(names = "--path-a", paramLabel = "SPEC", description = "With --dc: link fields of path a (default: "
            + "rate=20mbit queue=100p delay=10ms jitter=normal:cov=0.1).")
    String pathA;

    @Option(names = "--path-b", paramLabel = "SPEC", description = "With --dc: link fields of path b (same default).")
    String pathB;

    @Option(names = "--path", paramLabel = "MODE", defaultValue = "dc",
            description = "With --dc: how the flows of --listen use the paths: dc (both, as --dc says; default), a or b.")
    String path;

    @Option(names = "--route", paramLabel = "LISTEN=SERVER[@MODE]", converter = RouteConverter.class,
            description = "Another listening address and its server, sharing the link (repeatable); MODE dc, a or b.")
    List<RelayRoute> routes = new ArrayList<>();

    @Option(names = "--seed", defaultValue = "1", description = "Seed of every random stream (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--tap", converter = PathChecks.OutputFile.class, paramLabel = "FILE", description = "Write the server-side tap as pcapng (ns timestamps).")
    Path tap;

    @Option(names = "--snaplen", defaultValue = "0", paramLabel = "BYTES", description = "Bytes kept per tapped packet (0: all).")
    int snaplen;

    @Option(names = "--log", converter = PathChecks.OutputFile.class, paramLabel = "FILE", description = "Write the per-packet event log.")
    Path log;

    @Option(names = "--buffer", defaultValue = "32MiB", paramLabel = "SIZE", description = "UDP socket buffers (default: ${DEFAULT-VALUE}).")
    String buffer;

    @Option(names = "--spin", defaultValue = "150us", paramLabel = "TIME",
            description = "Spin this long before each event instead of sleeping (default: ${DEFAULT-VALUE}).")
    String spin;

    @Option(names = "--max-flows", defaultValue = "1024", description = "Client addresses served at once (default: ${DEFAULT-VALUE}).")
    int maxFlows;

    @Option(names = "--duration", paramLabel = "TIME", description = "Stop after this long (default: until interrupted).")
    String duration;

    @Option(names = "--rebind", paramLabel = "FIRST[/EVERY][,addr]",
            description = "NAT rebinding as the QUIC Interop Runner's rebind scenario: every flow gets a new port toward the "
                    + "server at FIRST after the server's first datagram, then every EVERY; ',addr' moves it to a new 127.x.y.z too "
                    + "(IPv4 loopback servers). E.g. 1s/5s.")
    String rebind;

    @Option(names = "--realtime", description = "Run the relay thread SCHED_FIFO for timing precision (needs root).")
    boolean realtime;

    @Option(names = "--warmup", paramLabel = "off|on|PACKETS", defaultValue = "off",
            description = "Before listening, run this many synthetic packets (on: " + WarmUp.DEFAULT_PACKETS + ") through a "
                    + "copy of the relay (two in turn) on loopback ports of its own, so the measured transfer meets compiled code; nothing "
                    + "of it reaches the tap, the event log or the counters (default: ${DEFAULT-VALUE}; pacelab run uses on).")
    String warmup;

    @Option(names = "--print-spec", description = "Print the resolved link and exit.")
    boolean printSpec;

    @Override
    public Integer call() throws Exception {
        LinkSpec link = null;
        DcSpec dcSpec = null;
        long bufferBytes, spinNanos, durationNanos;
        org.pacelab.net.relay.Rebinding rebinding;
        int warmPackets;
        var parsed = spec.commandLine().getParseResult();
        try {
            if (dc != null) {
                if (parsed.hasMatchedOption("--preset")) throw new SpecException("--preset does not apply with --dc; the "
                        + "paths are --path-a and --path-b (or a.KEY=, b.KEY= in --dc) and the uplink is --up");
                if (down != null) throw new SpecException("--down does not apply with --dc; give the two downlink paths with "
                        + "--path-a and --path-b");
                dcSpec = DcSpecParser.parse(dc, pathA, pathB, up);
            } else {
                if (pathA != null || pathB != null) throw new SpecException((pathA != null ? "--path-a" : "--path-b")
                        + " needs --dc (a dual-connectivity link); for one path use --down");
                link = LinkSpecParser.parse(preset, down, up);
            }
            bufferBytes = Units.parseSize("--buffer", buffer);
            spinNanos = Units.parseDuration("--spin", spin);
            durationNanos = duration == null ? 0 : Units.parseDuration("--duration", duration);
            rebinding = rebind == null ? org.pacelab.net.relay.Rebinding.NONE : org.pacelab.net.relay.Rebinding.parse("--rebind", rebind);
            warmPackets = WarmUp.parse("--warmup", warmup);
            if (bufferBytes > Integer.MAX_VALUE / 2) throw new SpecException("--buffer: '" + buffer + "' is more than 1 GiB");
        } catch (SpecException e) {
            return usageError(e.getMessage());
        }
        if (snaplen < 0) return usageError("--snaplen: " + snaplen + " is negative; give 0 (all) or a byte count");
        if (maxFlows < 1) return usageError("--max-flows: must be at least 1");
        var out = spec.commandLine().getOut();
        if (dcSpec != null) {
            out.println("dc:        " + dcSpec.format());
            out.println("path a:    " + dcSpec.a().format());
            out.println("path b:    " + dcSpec.b().format());
            out.println("link up:   " + dcSpec.up().format());
        } else {
            out.println("link down: " + link.down().format());
            out.println("link up:   " + link.up().format());
        }
        DcFlowMode primary;
        try {
            primary = DcFlowMode.parse("--path", path);
        } catch (SpecException e) {
            return usageError(e.getMessage());
        }
        if (dcSpec == null && primary != DcFlowMode.DUAL) return usageError("--path " + path + " needs --dc (a dual-connectivity link)");
        List<RelayRoute> all = new ArrayList<>();
        all.add(new RelayRoute(listen, to, primary));
        all.addAll(routes);
        if (dcSpec == null) {
            for (RelayRoute r : routes) {
                if (r.mode() != DcFlowMode.DUAL) return usageError("--route " + fmt(r.listen()) + ": @" + r.mode().label()
                        + " needs --dc (a dual-connectivity link)");
            }
        }
        if (printSpec) return 0;
        UdpRelay relay;
        try {
            RelayConfig config = new RelayConfig(all, link, dcSpec, seed, tap, snaplen, log, (int) bufferBytes, spinNanos,
                    maxFlows, 1_000_000, realtime, rebinding);
            // before the real relay binds its listening addresses: a client that finds them bound meets a warm relay
            out.println(warmPackets > 0 ? UdpRelay.warmUp(config, warmPackets).describe() : WarmUp.OFF);
            out.flush();
            relay = new UdpRelay(config);
        } catch (SpecException e) {
            return usageError(e.getMessage());
        } catch (IOException e) {
            spec.commandLine().getErr().println("pacelab emulate: " + e.getMessage());
            return FailureReporter.socketExitCode(e, ExitCode.FAILED);
        }
        for (int i = 0; i < all.size(); i++) {
            RelayRoute r = all.get(i);
            out.printf("relaying %s -> %s%s%n", fmt(relay.listenAddress(i)), fmt(r.server()),
                    dcSpec == null ? "" : " (" + (r.mode() == DcFlowMode.DUAL ? "both paths" : "path " + r.mode().label()) + ")");
        }
        out.printf("UDP buffers: asked %d bytes, kernel granted %d%n", bufferBytes, relay.grantedBuffer() / 2);
        out.flush();
        CountDownLatch finished = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            relay.stop();
            try { finished.await(10, TimeUnit.SECONDS); } catch (InterruptedException ignored) { Thread.currentThread().interrupt(); }
        }, "pacelab-emulate-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        Thread timer = null;
        if (durationNanos > 0) {
            timer = Thread.ofPlatform().daemon().start(() -> {
                try { Thread.sleep(durationNanos / 1_000_000L); } catch (InterruptedException e) { return; }
                relay.stop();
            });
        }
        try {
            relay.run();
        } finally {
            try {
                relay.close();
            } finally {
                out.print(relay.report());
                if (tap != null) out.println("tap written to " + tap);
                if (log != null) out.println("event log written to " + log);
                out.flush();
                finished.countDown();
                if (timer != null) timer.interrupt();
                try { Runtime.getRuntime().removeShutdownHook(hook); } catch (IllegalStateException shuttingDown) { /* signal */ }
            }
        }
        return 0;
    }

    private static String fmt(InetSocketAddress a) { return org.pacelab.net.sys.UdpSocket.format(a); }

    private int usageError(String message) {
        spec.commandLine().getErr().println("pacelab emulate: " + message);
        return 2;
    }
}
