package org.pacelab.lab.slurm;

import java.util.Set;

/**
 * One array task as {@code squeue --states=all} shows it: its job name (which names the submission), array job id,
 * task index, state, node and the reason Slurm gives (why it is pending, or why it failed).
 */
public record TaskState(String jobName, String arrayJobId, int task, String state, String node, String reason) {
    /** States of a task that has not ended (it may still run, or run again after a requeue). */
    private static final Set<String> LIVE = Set.of("PENDING", "RUNNING", "SUSPENDED", "COMPLETING", "CONFIGURING",
            "REQUEUED", "REQUEUE_FED", "REQUEUE_HOLD", "RESIZING", "SIGNALING", "STAGE_OUT", "STOPPED", "RESV_DEL_HOLD");

    public boolean live() {
        return LIVE.contains(state);
    }

    public boolean pending() {
        return state.equals("PENDING") || state.equals("REQUEUE_HOLD") || state.equals("REQUEUE_FED") || state.equals("RESV_DEL_HOLD");
    }

    public boolean running() {
        return live() && !pending();
    }

    /** Whether the task got a node (so it may have left files behind). */
    public boolean ran() {
        return !node.isEmpty() && !node.equals("(null)");
    }

    /** {@code 12_3}: how Slurm's commands name the task. */
    public String id() {
        return arrayJobId + "_" + task;
    }
}
