package org.pacelab.lab.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What this machine offers the runner: programs on the PATH, Debian package versions, root, the kernel's qdiscs
 * and TCP congestion controllers. Answers are cached for the life of the object.
 */
public class Host {
    private static final List<Path> EXTRA_BIN = List.of(Path.of("/usr/sbin"), Path.of("/sbin"), Path.of("/usr/local/sbin"));

    private final Map<String, Optional<Path>> programs = new ConcurrentHashMap<>();
    private final Map<String, String> packages = new ConcurrentHashMap<>();
    private final Map<String, QdiscSupport> qdiscs = new ConcurrentHashMap<>();
    private volatile Boolean root;

    /** Whether a qdisc kind can be installed here, and the sentence that explains it when not. */
    public record QdiscSupport(boolean available, String detail) {}

    /** The program's path (PATH, then the sbin directories), or empty. */
    public Optional<Path> which(String program) {
        return programs.computeIfAbsent(program, Host::search);
    }

    private static Optional<Path> search(String program) {
        List<Path> dirs = new ArrayList<>();
        String path = System.getenv("PATH");
        if (path != null) {
            for (String d : path.split(":")) {
                if (!d.isEmpty()) {
                    dirs.add(Path.of(d));
                }
            }
        }
        dirs.addAll(EXTRA_BIN);
        for (Path d : dirs) {
            Path p = d.resolve(program);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /** The installed version of a Debian package, or null when it is not installed (or dpkg is missing). */
    public String packageVersion(String pkg) {
        String v = packages.computeIfAbsent(pkg, p -> {
            Commands.Result r = Commands.run("dpkg-query", "-W", "-f=${Status}|${Version}", p);
            if (!r.ok() || !r.output().startsWith("install ok installed|")) {
                return "";
            }
            return r.output().substring("install ok installed|".length()).strip();
        });
        return v.isEmpty() ? null : v;
    }

    public boolean isRoot() {
        if (root == null) {
            Commands.Result r = Commands.run("id", "-u");
            root = r.ok() && r.output().strip().equals("0");
        }
        return root;
    }

    public String kernelRelease() {
        return readFirstLine(Path.of("/proc/sys/kernel/osrelease"), System.getProperty("os.version"));
    }

    /** TCP congestion controllers the kernel offers (net.ipv4.tcp_available_congestion_control). */
    public Set<String> tcpCongestionControls() {
        String s = readFirstLine(Path.of("/proc/sys/net/ipv4/tcp_available_congestion_control"), "");
        return new LinkedHashSet<>(Arrays.stream(s.split("\\s+")).filter(x -> !x.isEmpty()).toList());
    }

    /**
     * Whether the kernel can install this qdisc. As root the probe installs it on the loopback device of a throwaway
     * network namespace; otherwise it tries the same in a user namespace ({@code unshare -rn}).
     */
    public QdiscSupport qdisc(String kind) {
        return qdiscs.computeIfAbsent(kind.toLowerCase(Locale.ROOT), this::probeQdisc);
    }

    private QdiscSupport probeQdisc(String kind) {
        List<String> add = new ArrayList<>(List.of("tc", "qdisc", "add", "dev", "lo", "root", kind));
        if (kind.equals("etf")) {
            add.addAll(List.of("clockid", "CLOCK_TAI", "delta", "200000"));
        }
        Commands.Result r;
        if (isRoot()) {
            String ns = "pl-probe-" + ProcessHandle.current().pid();
            Commands.Result created = Commands.run("ip", "netns", "add", ns);
            if (!created.ok()) {
                return new QdiscSupport(false, "could not create a namespace to probe the " + kind + " qdisc: " + created.output());
            }
            try {
                List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", ns));
                cmd.addAll(add);
                r = Commands.run(30, cmd);
            } finally {
                Commands.run("ip", "netns", "del", ns);
            }
        } else {
            List<String> cmd = new ArrayList<>(List.of("unshare", "-rn"));
            cmd.addAll(add);
            r = Commands.run(30, cmd);
        }
        if (r.ok()) {
            return new QdiscSupport(true, "the kernel has the " + kind + " qdisc");
        }
        String out = r.output().isEmpty() ? "exit status " + r.exit() : r.output().lines().findFirst().orElse("");
        if (out.contains("unknown")) {
            return new QdiscSupport(false, "this kernel (" + kernelRelease() + ") has no " + kind + " qdisc (tc: " + out + ")");
        }
        return new QdiscSupport(false, "the " + kind + " qdisc could not be probed (" + out + ")");
    }

    static String readFirstLine(Path p, String dflt) {
        try {
            List<String> lines = Files.readAllLines(p);
            return lines.isEmpty() ? dflt : lines.getFirst().strip();
        } catch (IOException e) {
            return dflt;
        }
    }
}
