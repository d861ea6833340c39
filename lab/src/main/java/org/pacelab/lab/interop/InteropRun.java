package org.pacelab.lab.interop;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.pacelab.lab.peer.Launch;
import org.pacelab.lab.peer.PacelabLauncher;
import org.pacelab.lab.peer.Role;
import org.pacelab.lab.run.ChildProcess;
import org.pacelab.lab.run.PortProbe;
import org.pacelab.lab.run.ProcessSupervisor;
import org.pacelab.net.dc.DcFlowMode;
import org.pacelab.net.driver.WarmUp;
import org.pacelab.net.relay.RelayConfig;
import org.pacelab.net.relay.RelayRoute;
import org.pacelab.net.relay.UdpRelay;
import org.pacelab.net.spec.LinkSpecParser;
import org.pacelab.net.spec.SpecException;

/**
 * One cell of the matrix: a test case between one server and one client. The files are made, the relay runs the
 * case's network in this process (its tap on the server's side, as the runner's server trace), the server and then the
 * client's processes start as the runner would start them, and when the client is done everything is stopped and the
 * case's check reads the tap and the downloads. Exit status 127 from an endpoint means "unsupported", as in the runner.
 */
final class InteropRun {
    static final int UNSUPPORTED_EXIT = 127;
    private static final long READY_TIMEOUT_NS = 60_000_000_000L;
    private static final long STOP_GRACE_MILLIS = 3_000;
    /** After the client exits, the server's last packets (acknowledgements, CONNECTION_CLOSE) still cross the link. */
    private static final long SETTLE_MILLIS = 300;
    /**
     * Synthetic packets through copies of each cell's relay before it starts ({@link UdpRelay#warmUp}): enough to load
     * and compile its path (the first cell of an invocation meets it cold), few enough to cost a warm JVM little per
     * cell.
     */
    static final int RELAY_WARMUP_PACKETS = 5_000;

    private final InteropCase testCase;
    private final InteropEndpoint server;
    private final InteropEndpoint client;
    private final String alpn;
    private final Path dir;
    private final Path certificates;
    private final PacelabLauncher pacelab;
    private final ProcessSupervisor supervisor;
    private final TraceReader reader;
    private final long seed;
    private final LoopbackPorts ports;

    /** @param ports where the relay's and the server's ports come from (held while this run uses them) */
    InteropRun(InteropCase testCase, InteropEndpoint server, InteropEndpoint client, String alpn, Path dir, Path certificates,
               PacelabLauncher pacelab, ProcessSupervisor supervisor, TraceReader reader, long seed, LoopbackPorts ports) {
        this.testCase = testCase;
        this.server = server;
        this.client = client;
        this.alpn = alpn;
        this.dir = dir;
        this.certificates = certificates;
        this.pacelab = pacelab;
        this.supervisor = supervisor;
        this.reader = reader;
        this.seed = seed;
        this.ports = ports;
    }

    CheckResult run() throws IOException, InterruptedException {
        // the server's and the relay's ports, and with a preferred address the server's second one and the relay's route to it
        List<Integer> taken = ports.take(testCase.preferredAddress() ? 4 : 2);
        try {
            return run(taken);
        } finally {
            ports.release(taken);
        }
    }

    private CheckResult run(List<Integer> taken) throws IOException, InterruptedException {
        Path www = dir.resolve("www");
        Path downloads = dir.resolve("downloads");
        Files.createDirectories(www);
        Files.createDirectories(downloads);
        Files.createDirectories(dir.resolve("qlog-server"));
        Files.createDirectories(dir.resolve("qlog-client"));
        List<String> files = makeFiles(www);
        boolean v6 = testCase.family() == InteropCase.Family.IPV6;
        InetAddress loopback = InetAddress.getByName(v6 ? "::1" : "127.0.0.1");
        int serverPort = taken.get(0);
        int relayPort = taken.get(1);
        InetSocketAddress serverAddress = new InetSocketAddress(loopback, serverPort);
        InetSocketAddress relayAddress = new InetSocketAddress(loopback, relayPort);
        List<RelayRoute> routes = new ArrayList<>(List.of(new RelayRoute(relayAddress, serverAddress, DcFlowMode.DUAL)));
        InetSocketAddress preferred = null;
        InetSocketAddress advertised = null;
        Set<Integer> serverPorts = new LinkedHashSet<>(List.of(serverPort));
        if (testCase.preferredAddress()) {
            preferred = new InetSocketAddress(loopback, taken.get(2));
            advertised = new InetSocketAddress(loopback, taken.get(3));
            routes.add(new RelayRoute(advertised, preferred, DcFlowMode.DUAL));
            serverPorts.add(preferred.getPort());
        }
        Path tap = dir.resolve("tap.pcapng");
        String host = v6 ? "[::1]" : "127.0.0.1";
        List<String> urls = files.stream().map(f -> "https://" + host + ":" + relayPort + "/" + f).toList();
        Path serverKeys = dir.resolve("keys-server.log");
        Path clientKeys = dir.resolve("keys-client.log");
        long timeoutNs = testCase.timeoutSeconds() * 1_000_000_000L;
        EndpointSetup serverSetup = new EndpointSetup(dir, testCase.serverTestname(), alpn, serverAddress, preferred, advertised,
                List.of(), www, null, certificates, serverKeys, dir.resolve("qlog-server"), timeoutNs);
        EndpointSetup clientSetup = new EndpointSetup(dir, testCase.clientTestname(), alpn, null, null, null, urls, null, downloads,
                null, clientKeys, dir.resolve("qlog-client"), timeoutNs);
        UdpRelay relay;
        WarmUp.Result relayWarmUp;
        try {
            RelayConfig relayConfig = new RelayConfig(routes, LinkSpecParser.parse("interop-simple-p2p", testCase.down(),
                    testCase.up()), null, seed, tap, 0, dir.resolve("events.bin"), 32 << 20, 150_000, 1024, 1_000_000, false,
                    testCase.rebinding());
            // the relay's path compiled before the server starts: a cold relay delivered a cell's first datagrams up to
            // 0.1 s late, which the client's first RTT sample, and so its PTO, took for the path's
            relayWarmUp = UdpRelay.warmUp(relayConfig, RELAY_WARMUP_PACKETS);
            relay = new UdpRelay(relayConfig);
        } catch (SpecException e) {
            throw new IllegalStateException("case " + testCase.name() + " has a bad link: " + e.getMessage(), e);
        }
        // the relay opens its sockets and starts last, right before the try whose finally stops it: nothing between
        // can throw and leave it running
        String cell = dir.getParent().getFileName() + "/" + dir.getFileName();
        Thread relayThread = Thread.ofPlatform().name("interop-relay " + cell).start(() -> {
            try {
                relay.run();
            } catch (IOException e) {
                // the run fails on its own (the client gets nothing); the report says what the relay saw
            }
        });
        ChildProcess serverProcess = null;
        try {
            Launch sl = server.server(serverSetup, pacelab);
            serverProcess = supervisor.start("server " + server.name(), sl.command(), sl.environment(), dir,
                    dir.resolve("server.out"), dir.resolve("server.err"));
            CheckResult notReady = awaitReady(serverProcess, sl);
            if (notReady != null) {
                return notReady;
            }
            long deadline = System.nanoTime() + timeoutNs;
            List<Launch> steps = client.client(clientSetup, pacelab);
            for (int i = 0; i < steps.size(); i++) {
                Launch step = steps.get(i);
                String n = steps.size() == 1 ? "client" : "client-" + (i + 1);
                ChildProcess c = supervisor.start(n + " " + client.name(), step.command(), step.environment(), dir,
                        dir.resolve(n + ".out"), dir.resolve(n + ".err"));
                long left = deadline - System.nanoTime();
                boolean done = left > 0 && c.process().waitFor(left, TimeUnit.NANOSECONDS);
                if (!done) {
                    supervisor.stop(c, STOP_GRACE_MILLIS);
                    return CheckResult.failed("the client did not finish within " + testCase.timeoutSeconds() + " s (the case's "
                            + "timeout)" + (steps.size() > 1 ? " in connection " + (i + 1) + " of " + steps.size() : "") + "; its last "
                            + "output: " + c.tail());
                }
                supervisor.forget(c);
                int exit = c.process().exitValue();
                if (exit == UNSUPPORTED_EXIT) {
                    return CheckResult.unsupported("client: " + c.tail());
                }
                if (exit != 0) {
                    return CheckResult.failed("the client exited with status " + exit
                            + (steps.size() > 1 ? " in connection " + (i + 1) + " of " + steps.size() : "") + ": " + c.tail());
                }
            }
            Thread.sleep(SETTLE_MILLIS);
            if (!serverProcess.alive()) {
                int exit = serverProcess.process().exitValue();
                if (exit == UNSUPPORTED_EXIT) {
                    return CheckResult.unsupported("server: " + serverProcess.tail());
                }
            }
        } finally {
            if (serverProcess != null) {
                supervisor.stop(serverProcess, STOP_GRACE_MILLIS);
            }
            relay.stop();
            joinEvenIfInterrupted(relayThread, 10_000);
            relay.close();
            Files.writeString(dir.resolve("emulator.txt"), relayWarmUp.describe() + "\n" + relay.report());
        }
        CaseRun run = CaseRun.ofTap(testCase, www, downloads, files, keyLog(clientKeys, serverKeys), tap, serverPorts, reader, dir);
        return check(testCase, run);
    }

    /**
     * The case's check of a finished run; a tap that could not be read ({@link TraceException}: tshark failed or took too
     * long, or the tap is beyond {@link TraceReader#MAX_PACKETS}) fails this cell with the reader's sentence and leaves
     * the matrix's other cells to run.
     */
    static CheckResult check(InteropCase testCase, CaseRun run) throws IOException, InterruptedException {
        try {
            return testCase.check().check(run);
        } catch (TraceException e) {
            return CheckResult.failed(e.getMessage());
        }
    }

    /** The runner uses the client's key log when it is valid, else the server's. */
    private static Path keyLog(Path clientKeys, Path serverKeys) throws IOException {
        for (Path p : List.of(clientKeys, serverKeys)) {
            if (Files.isRegularFile(p) && Files.size(p) > 0) {
                try (Stream<String> lines = Files.lines(p)) {
                    if (lines.anyMatch(l -> l.startsWith("SERVER_HANDSHAKE_TRAFFIC_SECRET"))) {
                        return p;
                    }
                }
            }
        }
        return serverKeys;
    }

    private CheckResult awaitReady(ChildProcess p, Launch l) throws InterruptedException {
        long deadline = System.nanoTime() + READY_TIMEOUT_NS;
        while (!PortProbe.ready(p.pid(), l.readiness())) {
            if (!p.alive()) {
                int exit = p.process().exitValue();
                String tail = p.tail();
                return exit == UNSUPPORTED_EXIT ? CheckResult.unsupported("server: " + tail)
                        : CheckResult.failed("the server exited with status " + exit + " before it listened: " + tail);
            }
            if (System.nanoTime() > deadline) {
                return CheckResult.failed("the server did not listen on UDP port " + l.readiness().port() + " within "
                        + READY_TIMEOUT_NS / 1_000_000_000L + " s: " + p.tail());
            }
            Thread.sleep(25);
        }
        return null;
    }

    /** Random files of the case's sizes with random lower-case names, as the runner generates them. */
    private List<String> makeFiles(Path www) throws IOException {
        SplittableRandom random = new SplittableRandom();
        List<String> names = new ArrayList<>();
        Set<String> used = new java.util.HashSet<>();
        byte[] buffer = new byte[1 << 16];
        for (long size : testCase.files().sizes()) {
            String name;
            do {
                StringBuilder b = new StringBuilder(testCase.files().nameLength());
                for (int i = 0; i < testCase.files().nameLength(); i++) {
                    b.append((char) ('a' + random.nextInt(26)));
                }
                name = b.toString();
            } while (!used.add(name));
            try (OutputStream out = Files.newOutputStream(www.resolve(name))) {
                long left = size;
                while (left > 0) {
                    random.nextBytes(buffer);
                    int n = (int) Math.min(left, buffer.length);
                    out.write(buffer, 0, n);
                    left -= n;
                }
            }
            names.add(name);
        }
        return names;
    }

    /**
     * Waits for the relay's thread to leave its loop, also when this thread is interrupted (another cell of the matrix
     * failed and the others are being stopped): its sockets are closed only after it, and its ports given back.
     */
    private static void joinEvenIfInterrupted(Thread t, long millis) {
        long deadline = System.nanoTime() + millis * 1_000_000L;
        boolean interrupted = false;
        while (t.isAlive()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                break;
            }
            try {
                t.join(java.time.Duration.ofNanos(left));
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Removes the served and downloaded files (large, and re-made by every run). */
    void removeFiles() throws IOException {
        for (String d : List.of("www", "downloads")) {
            Path p = dir.resolve(d);
            if (Files.exists(p)) {
                try (Stream<Path> s = Files.walk(p)) {
                    for (Path x : s.sorted(Comparator.reverseOrder()).toList()) {
                        Files.deleteIfExists(x);
                    }
                }
            }
        }
    }
}
