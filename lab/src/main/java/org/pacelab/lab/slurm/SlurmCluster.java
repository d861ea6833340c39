package org.pacelab.lab.slurm;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.pacelab.peers.build.Commands;
import org.pacelab.lab.host.Host;

/**
 * The Slurm client commands pacelab uses — {@code sinfo} (partitions and their nodes), {@code sbatch} (job arrays),
 * {@code squeue --states=all} (the state of every array task, finished ones included while the controller remembers
 * them; accounting may be off, so {@code sacct} is not needed), {@code scontrol} (the array size limit) and
 * {@code scancel} — found on the PATH, their answers parsed. Every failure is one sentence with the fix.
 */
public final class SlurmCluster {
    static final List<String> COMMANDS = List.of("sbatch", "squeue", "sinfo", "scontrol", "scancel");
    private static final long TIMEOUT_S = 60;

    /** A partition as {@code sinfo} shows it: its nodes (by host name) and the fewest CPUs a node of it has. */
    public record Partition(String name, boolean isDefault, List<String> hosts, int minCpus, boolean up) {}

    private final Map<String, Path> programs;
    private final Function<List<String>, Commands.Result> runner;

    SlurmCluster(Map<String, Path> programs, Function<List<String>, Commands.Result> runner) {
        this.programs = programs;
        this.runner = runner;
    }

    /** Finds Slurm's commands on this host's PATH. */
    public static SlurmCluster find(Host host) throws SlurmException {
        return find(host, cmd -> Commands.run(TIMEOUT_S, cmd));
    }

    static SlurmCluster find(Host host, Function<List<String>, Commands.Result> runner) throws SlurmException {
        Map<String, Path> found = new LinkedHashMap<>();
        for (String p : COMMANDS) {
            Path at = host.which(p).orElse(null);
            if (at == null) {
                throw new SlurmException(p + " is not on the PATH, so there is no Slurm cluster to submit to from here: "
                        + "install Slurm's client commands (Debian: apt-get install slurm-client; scripts/slurm-local.sh up starts "
                        + "a single-node Slurm on this machine) and point SLURM_CONF at the cluster's slurm.conf, or run without "
                        + "--executor slurm");
            }
            found.put(p, at);
        }
        return new SlurmCluster(found, runner);
    }

    private Commands.Result run(String program, List<String> args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(programs.get(program).toString());
        cmd.addAll(args);
        return runner.apply(cmd);
    }

    private static String firstLine(String output) {
        return output.lines().filter(l -> !l.isBlank()).findFirst().orElse("no output").strip();
    }

    /** Every partition of the cluster (one {@code sinfo} call). */
    public List<Partition> partitions() throws SlurmException {
        Commands.Result r = run("sinfo", List.of("--noheader", "--Node", "--format=%P|%n|%c|%a"));
        if (!r.ok()) {
            throw new SlurmException("cannot reach the Slurm controller (sinfo: " + firstLine(r.output()) + "): start it "
                    + "(scripts/slurm-local.sh up starts a single-node Slurm here) or point SLURM_CONF at the cluster's slurm.conf");
        }
        Map<String, Partition> byName = new LinkedHashMap<>();
        for (String line : r.output().lines().toList()) {
            String[] f = line.strip().split("\\|", -1);
            if (f.length < 4 || f[0].isEmpty()) {
                continue;
            }
            boolean dflt = f[0].endsWith("*");
            String name = dflt ? f[0].substring(0, f[0].length() - 1) : f[0];
            int cpus = leadingInt(f[2]);
            Partition p = byName.get(name);
            List<String> hosts = new ArrayList<>(p == null ? List.of() : p.hosts());
            if (!hosts.contains(f[1])) {
                hosts.add(f[1]);
            }
            int min = p == null ? cpus : Math.min(p.minCpus(), cpus);
            byName.put(name, new Partition(name, dflt || (p != null && p.isDefault()), List.copyOf(hosts), min,
                    f[3].equals("up") || (p != null && p.up())));
        }
        if (byName.isEmpty()) {
            throw new SlurmException("the Slurm cluster has no partitions with nodes (sinfo lists none): add a node and a "
                    + "partition to its slurm.conf");
        }
        return List.copyOf(byName.values());
    }

    /** The partition to submit to: the named one, or the cluster's default when {@code name} is null. */
    public Partition partition(String name) throws SlurmException {
        List<Partition> all = partitions();
        List<String> names = all.stream().map(p -> p.name() + (p.isDefault() ? " (default)" : "")).toList();
        if (name == null) {
            return all.stream().filter(Partition::isDefault).findFirst().orElseThrow(() -> new SlurmException(
                    "the Slurm cluster has no default partition: name one with --partition (partitions: "
                            + String.join(", ", names) + ")"));
        }
        return all.stream().filter(p -> p.name().equals(name)).findFirst().orElseThrow(() -> new SlurmException(
                "unknown Slurm partition '" + name + "': pass one of this cluster's partitions to --partition ("
                        + String.join(", ", names) + "), or leave --partition out for the default"));
    }

    /** The cluster's largest job array: task indexes go from 0 to this minus one ({@code MaxArraySize}). */
    public int maxArraySize() {
        Commands.Result r = run("scontrol", List.of("show", "config"));
        if (r.ok()) {
            for (String line : r.output().lines().toList()) {
                String[] kv = line.split("=", 2);
                if (kv.length == 2 && kv[0].strip().equals("MaxArraySize")) {
                    int n = leadingInt(kv[1].strip());
                    if (n > 0) {
                        return n;
                    }
                }
            }
        }
        return 1001;
    }

    /** Submits a job array with {@code sbatch --parsable OPTIONS SCRIPT}; returns the array's job id. */
    public String submit(List<String> options, Path script) throws SlurmException {
        List<String> args = new ArrayList<>(List.of("--parsable"));
        args.addAll(options);
        args.add(script.toString());
        Commands.Result r = run("sbatch", args);
        String id = r.output().lines().map(String::strip).filter(l -> l.matches("[0-9]+(;.*)?")).findFirst().orElse(null);
        if (!r.ok() || id == null) {
            throw new SlurmException("sbatch refused the job array (" + firstLine(r.output()) + "): check --partition, --jobs "
                    + "(CPUs per task) and the --slurm-option values against the cluster's limits (sinfo, scontrol show partition)");
        }
        return id.split(";")[0];
    }

    /** Every task of the named jobs that the controller knows, running or ended ({@code squeue --states=all}). */
    public List<TaskState> tasks(List<String> jobNames) throws SlurmException {
        if (jobNames.isEmpty()) {
            return List.of();
        }
        Commands.Result r = run("squeue", List.of("--noheader", "--array", "--states=all", "--name=" + String.join(",", jobNames),
                "--format=%j|%F|%K|%T|%N|%r"));
        if (!r.ok()) {
            throw new SlurmException("squeue failed (" + firstLine(r.output()) + ")");
        }
        List<TaskState> out = new ArrayList<>();
        for (String line : r.output().lines().toList()) {
            String[] f = line.strip().split("\\|", -1);
            if (f.length < 6 || !f[2].matches("[0-9]+")) {
                continue;
            }
            out.add(new TaskState(f[0], f[1], Integer.parseInt(f[2]), f[3], f[4], f[5]));
        }
        return out;
    }

    /** Cancels the job arrays; failures are ignored (they may have ended). */
    public void cancel(List<String> jobIds) {
        if (!jobIds.isEmpty()) {
            run("scancel", jobIds);
        }
    }

    private static int leadingInt(String s) {
        int i = 0;
        while (i < s.length() && Character.isDigit(s.charAt(i))) {
            i++;
        }
        return i == 0 ? 0 : Integer.parseInt(s.substring(0, Math.min(i, 9)));
    }
}
