package org.pacelab.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;

import org.pacelab.lab.host.Host;
import org.pacelab.lab.run.PacelabSimulation;
import org.pacelab.lab.slurm.SlurmTask;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code pacelab slurm-task DIR SUBMISSION INDEX}: what one task of a job array that {@code pacelab run --executor slurm}
 * submitted runs on its node (the array's batch script calls it; not meant to be typed).
 */
@Command(name = "slurm-task", hidden = true, mixinStandardHelpOptions = true,
        description = {"Runs the runs of one Slurm array task of a campaign (called by the job array that",
                "'pacelab run --executor slurm' submits), writing their directories and a record per run."})
public final class SlurmTaskCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "DIR", description = "the campaign directory")
    Path campaign;

    @Parameters(index = "1", paramLabel = "SUBMISSION", description = "the submission's id (a directory under DIR/slurm)")
    String submission;

    @Parameters(index = "2", paramLabel = "INDEX", description = "the array task's index ($SLURM_ARRAY_TASK_ID)")
    int index;

    @Override
    public Integer call() throws Exception {
        // before anything in this JVM creates a SecureRandom: simulated runs draw their TLS randomness from their seed
        PacelabSimulation.prepareJvm();
        return SlurmTask.run(campaign, submission, index, Launchers.current(), new Host(), RunCommand.simulator(),
                System.out);
    }
}
