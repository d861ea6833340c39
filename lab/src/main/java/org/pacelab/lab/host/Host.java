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

import org.pacelab.peers.build.Commands;
import org.pacelab.peers.build.Programs;

/**
 * What this machine offers the runner: programs on the PATH, Debian package versions, root, the kernel's qdiscs
 * and TCP congestion controllers. Answers are cached for the life of the object.
 */
public class Host {
    /** Where Debian puts administration programs (gtlsserver, nginx, tc, sysctl); a user's PATH often lacks them. */
    public static final List<Path> SYSTEM_DIRS = Programs.SYSTEM_DIRS;

    private final List<Path> systemDirs;
    private final Programs search;
    private final Map<String, Optional<Path>> programs = new ConcurrentHashMap<>();
    private final Map<String, String> packages = new ConcurrentHashMap<>();
    private final Map<String, QdiscSupport> qdiscs = new ConcurrentHashMap<>();
    private volatile Boolean root;

    /** Whether a qdisc kind can be installed here, and the sentence that explains it when not. */
    public record QdiscSupport(boolean available, String detail) {}

    /** This machine as the current process sees it: its PATH, then the sbin directories. */
    public Host() {
        this(pathOfThisProcess(), SYSTEM_DIRS);
    }

    /** A host whose programs are looked up in {@code searchPath}, then in {@code systemDirs}. */
    public Host(List<Path> searchPath, List<Path> systemDirs) {
        this.systemDirs = List.copyOf(systemDirs);
        this.search = Programs.searching(searchPath, systemDirs);
    }

    /** The directories of this process's PATH, in order. */
    public static List<Path> pathOfThisProcess() {
        return Programs.pathOfThisProcess();
    }

    /** The program's absolute path (PATH, then the sbin directories), or empty. Remembered until {@link #forgetInstalled()}. */
    public Optional<Path> which(String program) {
        return programs.computeIfAbsent(program, search::find);
    }

    /** Finds programs as {@link #which} does (for peer builds). */
    public Programs programs() {
        return this::which;
    }

    /**
     * The command with its program replaced by the path {@link #which} found, so a process starts the program that
     * was found available even when this process's PATH lacks its directory (Debian's gtlsserver and nginx are in
     * /usr/sbin, which a non-root login shell's PATH often lacks). A program given as a path is kept as it is.
     *
     * @throws IOException one sentence when the program is not installed here
     */
    public List<String> resolve(List<String> command) throws IOException {
        if (command.isEmpty()) {
            throw new IOException("an empty command line");
        }
        String program = command.getFirst();
        if (program.contains("/")) {
            return command;
        }
        Path found = which(program).orElseThrow(() -> new IOException(program + " is not installed here (not on PATH"
                + (systemDirs.isEmpty() ? "" : " nor in " + String.join(", ", systemDirs.stream().map(Path::toString).toList())) + ")"));
        List<String> c = new ArrayList<>(command);
        c.set(0, found.toString());
        return c;
    }

    /**
     * Forgets what was found about programs and packages: after installing software, availability is decided
     * again from what is there now.
     */
    public void forgetInstalled() {
        programs.clear();
        packages.clear();
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
        Optional<Path> tc = which("tc");
        if (tc.isEmpty()) {
            return new QdiscSupport(false, "tc is not installed (Debian package iproute2), so the " + kind + " qdisc cannot be probed");
        }
        List<String> add = new ArrayList<>(List.of(tc.get().toString(), "qdisc", "add", "dev", "lo", "root", kind));
        if (kind.equals("etf")) {
            add.addAll(List.of("clockid", "CLOCK_TAI", "delta", "200000"));
        }
        Commands.Result r;
        if (isRoot()) {
            String ns = "pl-probe-" + ProcessHandle.current().pid();
            String ip = which("ip").map(Path::toString).orElse("ip");
            Commands.Result created = Commands.run(ip, "netns", "add", ns);
            if (!created.ok()) {
                return new QdiscSupport(false, "could not create a namespace to probe the " + kind + " qdisc: " + created.output());
            }
            try {
                List<String> cmd = new ArrayList<>(List.of(ip, "netns", "exec", ns));
                cmd.addAll(add);
                r = Commands.run(30, cmd);
            } finally {
                Commands.run(ip, "netns", "del", ns);
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
