package org.pacelab.lab.run;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import org.pacelab.lab.peer.Readiness;

/**
 * Tells whether a UDP port is bound or a TCP port listening in a process's network namespace, from
 * {@code /proc/PID/net/{udp,udp6,tcp,tcp6}} (the tables of the namespace that process lives in), and finds free
 * loopback ports.
 */
public final class PortProbe {
    private static final String UDP_BOUND = "07";
    private static final String TCP_LISTEN = "0A";

    private PortProbe() {}

    public static boolean ready(long pid, Readiness r) {
        return switch (r) {
            case Readiness.UdpBound u -> bound(pid, List.of("udp", "udp6"), u.port(), UDP_BOUND);
            case Readiness.TcpListening t -> bound(pid, List.of("tcp", "tcp6"), t.port(), TCP_LISTEN);
        };
    }

    static boolean bound(long pid, List<String> tables, int port, String state) {
        String hexPort = String.format(Locale.ROOT, "%04X", port);
        for (String t : tables) {
            Path p = Path.of("/proc", Long.toString(pid), "net", t);
            try {
                for (String line : Files.readAllLines(p)) {
                    String[] f = line.strip().split("\\s+");
                    if (f.length > 3 && f[1].endsWith(":" + hexPort) && f[3].equalsIgnoreCase(state)) {
                        return true;
                    }
                }
            } catch (IOException e) {
                // the process is gone or the table does not exist (no IPv6)
            }
        }
        return false;
    }

    /**
     * Whether the process has opened a UDP or TCP socket (a client that started talking): one of its descriptors is a
     * socket listed in its network namespace's UDP or TCP tables.
     */
    public static boolean hasInternetSocket(long pid) {
        java.util.Set<String> inodes = new java.util.HashSet<>();
        try (var fds = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "fd"))) {
            for (Path fd : fds) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) inodes.add(target.substring(8, target.length() - 1));
                } catch (IOException gone) {
                    // the descriptor was closed meanwhile
                }
            }
        } catch (IOException e) {
            return false;
        }
        if (inodes.isEmpty()) return false;
        for (String t : List.of("udp", "udp6", "tcp", "tcp6")) {
            try {
                for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "net", t))) {
                    String[] f = line.strip().split("\\s+");
                    if (f.length > 9 && inodes.contains(f[9])) return true;
                }
            } catch (IOException e) {
                // no such table
            }
        }
        return false;
    }

    /** A UDP port on 127.0.0.1 that is free now (and a TCP one of the same number, for servers of either kind). */
    public static int freePort() throws IOException {
        for (int attempt = 0; attempt < 50; attempt++) {
            int port;
            try (DatagramSocket s = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
                port = s.getLocalPort();
            }
            try (ServerSocket t = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                return port;
            } catch (IOException taken) {
                // try another
            }
        }
        throw new IOException("no free loopback port found");
    }
}
