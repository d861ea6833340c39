package org.pacelab.lab.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.pacelab.peers.build.Commands;
import org.pacelab.lab.testing.FakeHost;

/** The Slurm commands' answers as pacelab reads them, and the sentences for a cluster that is missing or misnamed. */
class SlurmClusterTest {
    private final List<List<String>> calls = new ArrayList<>();

    private SlurmCluster cluster(Map<String, Commands.Result> answers) throws SlurmException {
        return SlurmCluster.find(new FakeHost().with("sbatch", "squeue", "sinfo", "scontrol", "scancel"), cmd -> {
            calls.add(cmd);
            String program = Path.of(cmd.getFirst()).getFileName().toString();
            return answers.getOrDefault(program, new Commands.Result(0, ""));
        });
    }

    @Test
    void withoutSbatchOnThePathTheSentenceSaysWhatToInstall() {
        SlurmException e = assertThrows(SlurmException.class, () -> SlurmCluster.find(new FakeHost().with("squeue")));
        assertTrue(e.getMessage().startsWith("sbatch is not on the PATH"), e.getMessage());
        assertTrue(e.getMessage().contains("apt-get install slurm-client") && e.getMessage().contains("SLURM_CONF")
                && e.getMessage().contains("without --executor slurm"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"));
    }

    @Test
    void partitionsAreReadFromSinfoWithTheDefaultMarked() throws Exception {
        SlurmCluster c = cluster(Map.of("sinfo", new Commands.Result(0, """
                debug*|n1|8|up
                debug*|n2|4|up
                big|n3|64+|up
                """)));
        List<SlurmCluster.Partition> ps = c.partitions();
        assertEquals(2, ps.size());
        assertEquals(new SlurmCluster.Partition("debug", true, List.of("n1", "n2"), 4, true), ps.get(0));
        assertEquals(new SlurmCluster.Partition("big", false, List.of("n3"), 64, true), ps.get(1));
        assertEquals("debug", c.partition(null).name());
        assertEquals("big", c.partition("big").name());
        SlurmException e = assertThrows(SlurmException.class, () -> c.partition("gpu"));
        assertEquals("unknown Slurm partition 'gpu': pass one of this cluster's partitions to --partition (debug (default), big), "
                + "or leave --partition out for the default", e.getMessage());
    }

    @Test
    void anUnreachableControllerIsOneSentence() throws Exception {
        SlurmCluster c = cluster(Map.of("sinfo", new Commands.Result(1,
                "slurm_load_partitions: Unable to contact slurm controller (connect failure)")));
        SlurmException e = assertThrows(SlurmException.class, c::partitions);
        assertTrue(e.getMessage().startsWith("cannot reach the Slurm controller (sinfo: slurm_load_partitions: Unable to contact"),
                e.getMessage());
        assertTrue(e.getMessage().contains("scripts/slurm-local.sh up"), e.getMessage());
    }

    @Test
    void squeueTasksAndSbatchIdsAreParsed() throws Exception {
        SlurmCluster c = cluster(Map.of(
                "squeue", new Commands.Result(0, """
                        pacelab-a|12|3|RUNNING|n1|None
                        pacelab-a|12|4|PENDING||Resources
                        pacelab-a|12|0|CANCELLED|n2|None
                        """),
                "sbatch", new Commands.Result(0, "13;cluster1\n"),
                "scontrol", new Commands.Result(0, "MaxArraySize            = 40001\nMaxJobCount = 10000\n")));
        List<TaskState> ts = c.tasks(List.of("pacelab-a", "pacelab-b"));
        assertEquals(3, ts.size());
        assertTrue(ts.get(0).running() && ts.get(0).ran() && ts.get(0).live());
        assertTrue(ts.get(1).pending() && !ts.get(1).ran());
        assertFalse(ts.get(2).live());
        assertEquals("12_0", ts.get(2).id());
        assertTrue(calls.getLast().contains("--name=pacelab-a,pacelab-b") && calls.getLast().contains("--states=all"), calls.toString());
        assertEquals("13", c.submit(List.of("--array=0-1"), Path.of("/tmp/task.sh")));
        assertEquals(List.of("--parsable", "--array=0-1", "/tmp/task.sh"), calls.getLast().subList(1, 4));
        assertEquals(40001, c.maxArraySize());
    }

    @Test
    void aRefusedSubmissionSaysWhatSbatchSaid() throws Exception {
        SlurmCluster c = cluster(Map.of("sbatch", new Commands.Result(1,
                "sbatch: error: Batch job submission failed: Requested node configuration is not available")));
        SlurmException e = assertThrows(SlurmException.class, () -> c.submit(List.of(), Path.of("/tmp/x.sh")));
        assertTrue(e.getMessage().startsWith("sbatch refused the job array (sbatch: error: Batch job submission failed: "
                + "Requested node configuration is not available)"), e.getMessage());
    }

    @Test
    void settingsRefuseOptionsPacelabSetsItself() {
        assertNull(new SlurmSettings(null, List.of("--time=01:00:00", "--account=lab", "--mem=4G"), null, null).problem());
        assertTrue(new SlurmSettings(null, List.of("--array=0-3"), null, null).problem().contains("pacelab sets --array itself"));
        assertTrue(new SlurmSettings(null, List.of("-c4"), null, null).problem().contains("--jobs sets the CPUs"));
        assertTrue(new SlurmSettings(null, List.of("-pgpu"), null, null).problem().contains("use pacelab's --partition"));
        assertTrue(new SlurmSettings(null, List.of("time=1"), null, null).problem().contains("starts with '-'"));
        assertTrue(new SlurmSettings(null, List.of(), 0, null).problem().startsWith("--jobs: must be at least 1"));
        assertTrue(new SlurmSettings(null, List.of(), null, 0).problem().startsWith("--runs-per-task: must be at least 1"));
        SlurmSettings auto = new SlurmSettings(null, List.of(), null, null);
        assertEquals(2, auto.cpusFor(2));
        assertEquals(4, auto.cpusFor(128));
        assertEquals(8, auto.runsFor(4));
        assertEquals(3, new SlurmSettings(null, List.of(), 3, 5).cpusFor(128));
        assertEquals(5, new SlurmSettings(null, List.of(), 3, 5).runsFor(3));
    }

    @Test
    void aCampaignDirectoryInMemoryIsRefusedWhenOtherNodesMustSeeIt() {
        SlurmCluster.Partition others = new SlurmCluster.Partition("p", true, List.of("node-elsewhere-1"), 4, true);
        String why = SlurmExecutor.localOnly(Path.of("/dev/shm/pacelab-campaign"), others);
        assertTrue(why != null && why.contains("memory filesystem (tmpfs)") && why.contains("pass --out"), why);
        SlurmCluster.Partition here = new SlurmCluster.Partition("p", true, List.of("localhost"), 4, true);
        assertNull(SlurmExecutor.localOnly(Path.of("/dev/shm/pacelab-campaign"), here));
    }

    @Test
    void shellQuotingSurvivesQuotes() {
        assertEquals("'it'\\''s'", SlurmExecutor.shellQuote("it's"));
    }
}
