package org.pacelab.lab.slurm;

import java.util.List;

/**
 * How {@code pacelab run --executor slurm} submits: the partition (null: the cluster's default), extra sbatch options
 * for every array, CPUs per simulated-run task ({@code --jobs}; null: as many as the partition's smallest node has,
 * at most 4) and simulated runs per task ({@code --runs-per-task}; null: twice the CPUs). Relay and netns runs always
 * get a task and a whole node ({@code --exclusive}) each.
 */
public record SlurmSettings(String partition, List<String> sbatchOptions, Integer cpusPerTask, Integer runsPerTask) {
    /** Options pacelab sets itself: a user's value would break how it finds its tasks and their results. */
    private static final List<String> OWN = List.of("--array", "-a", "--output", "-o", "--error", "-e", "--job-name", "-J",
            "--parsable", "--wrap", "--chdir", "-D", "--open-mode", "--cpus-per-task", "-c", "--exclusive");
    static final int MAX_AUTO_CPUS = 4;

    public SlurmSettings {
        sbatchOptions = sbatchOptions == null ? List.of() : List.copyOf(sbatchOptions);
    }

    /** Checks the settings; the problem as one sentence with the fix, or null. */
    public String problem() {
        if (partition != null && partition.isBlank()) {
            return "--partition: empty; name a partition of the cluster (sinfo lists them) or leave the option out";
        }
        if (cpusPerTask != null && cpusPerTask < 1) {
            return "--jobs: must be at least 1 (CPUs per array task that runs simulations), got " + cpusPerTask;
        }
        if (runsPerTask != null && runsPerTask < 1) {
            return "--runs-per-task: must be at least 1, got " + runsPerTask;
        }
        for (String o : sbatchOptions) {
            if (!o.startsWith("-")) {
                return "--slurm-option '" + o + "': an sbatch option starts with '-'; write it as one word, e.g. "
                        + "--slurm-option=--time=02:00:00";
            }
            String name = o.contains("=") ? o.substring(0, o.indexOf('=')) : o;
            if (name.equals("--partition") || name.equals("-p") || name.startsWith("-p") && !name.startsWith("--")) {
                return "--slurm-option '" + o + "': use pacelab's --partition instead";
            }
            for (String own : OWN) {
                boolean shortForm = own.length() == 2 && name.startsWith(own) && !name.startsWith("--");
                if (name.equals(own) || shortForm) {
                    return "--slurm-option '" + o + "': pacelab sets " + own + " itself (one array task per pack of runs, "
                            + "its log in the campaign directory" + (own.equals("--cpus-per-task") || own.equals("-c")
                            ? "; --jobs sets the CPUs of a task" : own.equals("--exclusive") ? "; relay and netns tasks get it" : "")
                            + "); pass other sbatch options";
                }
            }
        }
        return null;
    }

    /** CPUs of a task that runs simulations, given the smallest node of the partition. */
    int cpusFor(int nodeCpus) {
        if (cpusPerTask != null) {
            return cpusPerTask;
        }
        return Math.max(1, Math.min(MAX_AUTO_CPUS, nodeCpus));
    }

    /** Simulated runs packed into one task. */
    int runsFor(int cpus) {
        return runsPerTask != null ? runsPerTask : 2 * cpus;
    }
}
