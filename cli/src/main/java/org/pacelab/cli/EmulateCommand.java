package org.pacelab.cli;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.pacelab.net.relay.RelayConfig;
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
                        + "--down \"rate=40mbit delay=20ms queue=143p\"; keys: " + LinkSpecParser.KEYS + "."},
        footer = {"", "Presets: quic-steps (QUIC Steps study: tbf 40 Mbit/s + netem 20 ms sharing a 143-packet limit; uplink 20 ms),",
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

    @Option(names = "--seed", defaultValue = "1", description = "Seed of every random stream (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--tap", paramLabel = "FILE", description = "Write the server-side tap as pcapng (ns timestamps).")
    Path tap;

    @Option(names = "--snaplen", defaultValue = "0", paramLabel = "BYTES", description = "Bytes kept per tapped packet (0: all).")
    int snaplen;

    @Option(names = "--log", paramLabel = "FILE", description = "Write the per-packet event log.")
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

    @Option(names = "--realtime", description = "Run the relay thread SCHED_FIFO for timing precision (needs root).")
    boolean realtime;

    @Option(names = "--print-spec", description = "Print the resolved link and exit.")
    boolean printSpec;

    @Override
    public Integer call() throws Exception {
        LinkSpec link;
        long bufferBytes, spinNanos, durationNanos;
        try {
            link = LinkSpecParser.parse(preset, down, up);
            bufferBytes = Units.parseSize("--buffer", buffer);
            spinNanos = Units.parseDuration("--spin", spin);
            durationNanos = duration == null ? 0 : Units.parseDuration("--duration", duration);
            if (bufferBytes > Integer.MAX_VALUE / 2) throw new SpecException("--buffer: '" + buffer + "' is more than 1 GiB");
        } catch (SpecException e) {
            return usageError(e.getMessage());
        }
        if (snaplen < 0) return usageError("--snaplen: " + snaplen + " is negative; give 0 (all) or a byte count");
        if (maxFlows < 1) return usageError("--max-flows: must be at least 1");
        var out = spec.commandLine().getOut();
        out.println("link down: " + link.down().format());
        out.println("link up:   " + link.up().format());
        if (printSpec) return 0;
        UdpRelay relay;
        try {
            relay = new UdpRelay(new RelayConfig(listen, to, link, seed, tap, snaplen, log, (int) bufferBytes, spinNanos,
                    maxFlows, 1_000_000, realtime));
        } catch (SpecException e) {
            return usageError(e.getMessage());
        } catch (IOException e) {
            spec.commandLine().getErr().println("pacelab emulate: " + e.getMessage());
            return 1;
        }
        out.printf("relaying %s -> %s (UDP buffers: asked %d bytes, kernel granted %d)%n", fmt(listen), fmt(to),
                bufferBytes, relay.grantedBuffer() / 2);
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
