package org.pacelab.net.netns;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.pacelab.net.sys.Libc;
import org.pacelab.net.sys.SysException;
import org.pacelab.net.sys.TunDevice;

/**
 * The namespace testbed: a server namespace and a client namespace, each with a TUN device whose other end is
 * held by the emulator in the root namespace, so every IP packet between them (UDP, TCP, ICMP) crosses the link
 * model. Everything is named with the prefix {@value #PREFIX}; {@link #down} removes whatever carries it, also
 * after a crash (TUN devices vanish with the emulator's descriptors; namespaces are deleted by name).
 *
 * <pre>
 *   [pl-server]  10.77.1.1, fd77:1::1 on pl-tun-s  --read-->  emulator (root ns)  --write-->  pl-tun-c  10.77.2.1, fd77:2::1 [pl-client]
 * </pre>
 */
public final class NetnsLab {
    private NetnsLab() {}

    public static final String PREFIX = "pl-";
    public static final String SERVER_NS = "pl-server", CLIENT_NS = "pl-client";
    public static final String SERVER_TUN = "pl-tun-s", CLIENT_TUN = "pl-tun-c";
    public static final String SERVER_V4 = "10.77.1.1", CLIENT_V4 = "10.77.2.1";
    public static final String SERVER_V6 = "fd77:1::1", CLIENT_V6 = "fd77:2::1";
    public static final Path STATE_DIR = Path.of("/run/pacelab");
    public static final Path PID_FILE = STATE_DIR.resolve("netns.pid");

    /** The two TUN devices of a running lab; closing them removes the devices. */
    public record Tuns(TunDevice server, TunDevice client) implements AutoCloseable {
        @Override public void close() { server.close(); client.close(); }
    }

    public static void requireRoot() throws NetnsException {
        if (!Libc.isRoot()) {
            throw new NetnsException("namespace mode needs root (network namespaces and TUN devices); run it as root, or use "
                    + "'pacelab emulate' for the unprivileged UDP relay");
        }
    }

    /** Namespace name for a role: server or client. */
    public static String namespace(String role) throws NetnsException {
        return switch (role.toLowerCase(Locale.ROOT)) {
            case "server" -> SERVER_NS;
            case "client" -> CLIENT_NS;
            default -> throw new NetnsException("--ns: '" + role + "' is not a namespace of the lab; valid: server, client");
        };
    }

    /** Namespaces and root-namespace links whose names carry the prefix. */
    public static List<String> leftovers() throws NetnsException {
        List<String> found = new ArrayList<>();
        for (String l : Shell.lines(Shell.run("ip", "netns", "list").output())) {
            String name = l.split("\\s+")[0];
            if (name.startsWith(PREFIX)) found.add("namespace " + name);
        }
        for (String l : Shell.lines(Shell.run("ip", "-o", "link", "show").output())) {
            String[] parts = l.split(":\\s+");
            if (parts.length > 1) {
                String name = parts[1].split("@")[0].strip();
                if (name.startsWith(PREFIX)) found.add("link " + name);
            }
        }
        return found;
    }

    /** Creates the namespaces and TUN devices and configures addresses and routes. Cleans up if a step fails. */
    public static Tuns up() throws NetnsException {
        requireRoot();
        List<String> old = leftovers();
        if (!old.isEmpty()) {
            throw new NetnsException("a lab from an earlier run is still there (" + String.join(", ", old)
                    + "); remove it with 'pacelab netns down --all'");
        }
        TunDevice s = null, c = null;
        try {
            Shell.must("ip", "netns", "add", SERVER_NS);
            Shell.must("ip", "netns", "add", CLIENT_NS);
            s = TunDevice.create(SERVER_TUN);
            c = TunDevice.create(CLIENT_TUN);
            configure(SERVER_NS, SERVER_TUN, SERVER_V4, CLIENT_V4, SERVER_V6, CLIENT_V6);
            configure(CLIENT_NS, CLIENT_TUN, CLIENT_V4, SERVER_V4, CLIENT_V6, SERVER_V6);
            return new Tuns(s, c);
        } catch (NetnsException | SysException | RuntimeException e) {
            if (s != null) s.close();
            if (c != null) c.close();
            down(false);
            if (e instanceof NetnsException ne) throw ne;
            throw new NetnsException(e.getMessage());
        }
    }

    private static void configure(String ns, String tun, String v4, String peerV4, String v6, String peerV6) throws NetnsException {
        Shell.must("ip", "link", "set", tun, "netns", ns);
        Shell.must("ip", "netns", "exec", ns, "ip", "link", "set", "lo", "up");
        Shell.must("ip", "netns", "exec", ns, "ip", "addr", "add", v4 + "/32", "dev", tun);
        Shell.must("ip", "netns", "exec", ns, "ip", "-6", "addr", "add", v6 + "/128", "dev", tun, "nodad");
        Shell.must("ip", "netns", "exec", ns, "ip", "link", "set", tun, "up");
        Shell.must("ip", "netns", "exec", ns, "ip", "route", "add", peerV4 + "/32", "dev", tun);
        Shell.must("ip", "netns", "exec", ns, "ip", "-6", "route", "add", peerV6 + "/128", "dev", tun);
    }

    /**
     * Stops a running lab's emulator (from its pid file) and removes the namespaces; with {@code all}, also every
     * namespace and root-namespace link with the prefix. Returns what was removed.
     */
    public static List<String> down(boolean all) throws NetnsException {
        List<String> removed = new ArrayList<>();
        stopRecordedEmulator(removed);
        for (String item : leftovers()) {
            String[] kv = item.split(" ", 2);
            boolean standard = kv[1].equals(SERVER_NS) || kv[1].equals(CLIENT_NS);
            if (!all && !standard) continue;
            if (kv[0].equals("namespace")) {
                killProcessesIn(kv[1]);
                if (Shell.run("ip", "netns", "del", kv[1]).ok()) removed.add(item);
            } else if (Shell.run("ip", "link", "del", kv[1]).ok()) {
                removed.add(item);
            }
        }
        return removed;
    }

    private static void killProcessesIn(String ns) throws NetnsException {
        for (String pid : Shell.lines(Shell.run("ip", "netns", "pids", ns).output())) {
            if (pid.strip().matches("[0-9]+")) {
                ProcessHandle.of(Long.parseLong(pid.strip())).ifPresent(ProcessHandle::destroyForcibly);
            }
        }
    }

    private static void stopRecordedEmulator(List<String> removed) {
        try {
            if (!Files.exists(PID_FILE)) return;
            long pid = Long.parseLong(Files.readString(PID_FILE).strip());
            Files.deleteIfExists(PID_FILE);
            if (pid == ProcessHandle.current().pid()) return;
            ProcessHandle.of(pid).ifPresent(h -> {
                h.destroy();
                try {
                    h.onExit().get(10, java.util.concurrent.TimeUnit.SECONDS);
                } catch (Exception e) {
                    h.destroyForcibly();
                }
                removed.add("emulator process " + pid);
            });
        } catch (IOException | NumberFormatException e) {
            // an unreadable pid file names no process to stop
        }
    }

    /** Records this process as the running lab's emulator. */
    public static void writePidFile() throws IOException {
        Files.createDirectories(STATE_DIR);
        Files.writeString(PID_FILE, ProcessHandle.current().pid() + "\n");
    }

    public static void deletePidFile() {
        try {
            if (Files.exists(PID_FILE) && Files.readString(PID_FILE).strip().equals(String.valueOf(ProcessHandle.current().pid()))) {
                Files.delete(PID_FILE);
            }
        } catch (IOException ignored) {
            // nothing else to clean
        }
    }
}
