package org.pacelab.lab.run;

import java.nio.file.Path;

import org.pacelab.lab.plan.RunSpec;
import org.pacelab.lab.store.ResultStore;

/**
 * Where a campaign keeps its files:
 * <pre>
 *   DIR/campaign.duckdb        the results store
 *   DIR/scenario.yaml          the scenario as run
 *   DIR/environment.json       machine, JDK, peer versions
 *   DIR/runs/CONFIG/REP/       one run: tap.pcapng, events.bin, keys.log, qlog/, logs, summary.json, packets.csv
 *   DIR/report/                index.html, figures/, aggregate.json
 *   DIR/www/, DIR/pki/         served files (sparse) and the servers' certificate
 *   DIR/slurm/                 job arrays submitted with --executor slurm: one directory per submission
 * </pre>
 */
public record CampaignLayout(Path root) {
    /**
     * The root is kept absolute: every run's processes start in their own run directory, so the paths handed to them
     * (tap, event log, key log, qlog directory) must not be relative to the directory the runner was started in.
     */
    public CampaignLayout {
        root = root.toAbsolutePath().normalize();
    }

    public Path store() {
        return root.resolve(ResultStore.FILE_NAME);
    }

    public Path scenarioCopy() {
        return root.resolve("scenario.yaml");
    }

    public Path environment() {
        return root.resolve("environment.json");
    }

    public Path runs() {
        return root.resolve("runs");
    }

    public Path runDir(RunSpec run) {
        return runs().resolve(run.configuration().id()).resolve(Integer.toString(run.repetition()));
    }

    public Path documentRoot() {
        return root.resolve("www");
    }

    public Path pki() {
        return root.resolve("pki");
    }

    public Path report() {
        return root.resolve("report");
    }

    /** Processes this campaign started and has not yet seen exit (cleaned up after a crash). */
    public Path children() {
        return root.resolve(".children");
    }

    /** The Slurm executor's submissions (manifest, job id, task logs), one directory each. */
    public Path slurm() {
        return root.resolve("slurm");
    }

    /**
     * Present while job arrays of this campaign may be running on a Slurm cluster (created before the first sbatch,
     * removed when every submitted run is stored): the local executor refuses to run the campaign meanwhile.
     */
    public Path slurmInFlight() {
        return slurm().resolve("in-flight");
    }

    public Path lock() {
        return root.resolve(".lock");
    }
}
