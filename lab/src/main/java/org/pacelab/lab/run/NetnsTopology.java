package org.pacelab.lab.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.pacelab.lab.peer.PacelabLauncher;
import org.pacelab.lab.peer.Role;
import org.pacelab.lab.plan.Configuration;
import org.pacelab.lab.scenario.Collect;
import org.pacelab.net.netns.NetnsException;
import org.pacelab.net.netns.NetnsLab;

/**
 * Netns mode: {@code pacelab netns up} creates a server and a client namespace joined through the emulator; the
 * server listens on the server namespace's address and the client connects to it, so any IP traffic (QUIC, TCP)
 * crosses the link model. Closing stops the lab, which removes its namespaces; anything left is removed too.
 */
final class NetnsTopology implements Topology {
    static final int PORT = 4433;
    private static final long LAB_STOP_MILLIS = 30_000;
    private static final long OTHER_LAB_WAIT_NS = 5 * 60_000_000_000L;

    private final ProcessSupervisor supervisor;
    private final ChildProcess lab;

    private NetnsTopology(ProcessSupervisor supervisor, ChildProcess lab) {
        this.supervisor = supervisor;
        this.lab = lab;
    }

    static NetnsTopology start(ProcessSupervisor supervisor, PacelabLauncher pacelab, Configuration c, long seed, Path dir,
                               Collect collect, long readyTimeoutNs) throws IOException, RunFailedException, InterruptedException {
        return start(supervisor, pacelab, c, seed, dir, collect, readyTimeoutNs, List.of());
    }

    /** With more {@code pacelab netns up} options (e.g. {@code --port-path} for dual connectivity). */
    static NetnsTopology start(ProcessSupervisor supervisor, PacelabLauncher pacelab, Configuration c, long seed, Path dir,
                               Collect collect, long readyTimeoutNs, List<String> extra)
            throws IOException, RunFailedException, InterruptedException {
        waitForOtherLab();
        List<String> args = new ArrayList<>(List.of("netns", "up"));
        args.addAll(EmulatorArguments.of(c, seed, dir, collect));
        args.addAll(extra);
        Path out = RunFiles.log(dir, "emulator", "out");
        ChildProcess lab = supervisor.start("netns lab", pacelab.command(args), Map.of(), dir, out, RunFiles.log(dir, "emulator", "err"));
        NetnsTopology t = new NetnsTopology(supervisor, lab);
        try {
            Waits.until(lab, () -> RunFiles.hasLine(out, "ready: "), readyTimeoutNs, "the namespace lab to come up");
        } catch (RunFailedException | InterruptedException e) {
            t.closeQuietly();
            throw e;
        }
        return t;
    }

    /**
     * The namespaces have fixed names, so one lab runs at a time on a machine: while another experiment's lab is
     * running (its emulator alive), wait for it; leftovers without a running emulator are an error.
     */
    private static void waitForOtherLab() throws RunFailedException, InterruptedException {
        long deadline = System.nanoTime() + OTHER_LAB_WAIT_NS;
        try {
            while (true) {
                List<String> left = NetnsLab.leftovers();
                if (left.isEmpty()) {
                    return;
                }
                if (!otherLabRunning() || System.nanoTime() > deadline) {
                    throw new RunFailedException("a namespace lab is already there (" + String.join(", ", left) + ")"
                            + (otherLabRunning() ? " and still in use after " + OTHER_LAB_WAIT_NS / 60_000_000_000L + " minutes" : "")
                            + "; remove it with 'pacelab netns down --all'");
                }
                Thread.sleep(1000);
            }
        } catch (NetnsException e) {
            throw new RunFailedException(e.getMessage(), e);
        }
    }

    private static boolean otherLabRunning() {
        try {
            if (!Files.isRegularFile(NetnsLab.PID_FILE)) {
                return false;
            }
            long pid = Long.parseLong(Files.readString(NetnsLab.PID_FILE).strip());
            return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
        } catch (IOException | NumberFormatException e) {
            return false;
        }
    }

    @Override
    public String serverAddress() {
        return NetnsLab.SERVER_V4;
    }

    @Override
    public int serverPort() {
        return PORT;
    }

    @Override
    public String clientHost() {
        return NetnsLab.SERVER_V4;
    }

    @Override
    public int clientPort() {
        return PORT;
    }

    @Override
    public ChildProcess emulator() {
        return lab;
    }

    @Override
    public List<String> wrap(Role role, List<String> command) {
        List<String> c = new ArrayList<>(List.of("ip", "netns", "exec", role == Role.SERVER ? NetnsLab.SERVER_NS : NetnsLab.CLIENT_NS));
        c.addAll(command);
        return c;
    }

    /** The command that installs a host qdisc on the server namespace's side of the link (to run in the server's namespace). */
    List<String> qdiscCommand(String kind) {
        List<String> c = new ArrayList<>(List.of("tc", "qdisc", "replace", "dev", NetnsLab.SERVER_TUN, "root", kind));
        if (kind.equals("etf")) {
            c.addAll(List.of("clockid", "CLOCK_TAI", "delta", "200000"));
        }
        return c;
    }

    @Override
    public void close() throws RunFailedException {
        int exit = supervisor.stop(lab, LAB_STOP_MILLIS);
        try {
            List<String> left = NetnsLab.leftovers();
            if (!left.isEmpty()) {
                NetnsLab.down(true);
            }
        } catch (NetnsException e) {
            throw new RunFailedException("could not remove the namespace lab: " + e.getMessage(), e);
        }
        if (exit != 0 && exit != 143) {
            throw new RunFailedException("the namespace lab exited with status " + exit + ": " + lab.tail());
        }
    }

    private void closeQuietly() {
        try {
            close();
        } catch (RunFailedException e) {
            // the first failure is the one reported
        }
    }
}
