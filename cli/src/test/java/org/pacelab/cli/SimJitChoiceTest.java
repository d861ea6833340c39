package org.pacelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * The launcher's JIT for 'pacelab sim' (scripts/sim-jit.sh, sourced by ./pacelab): C1 alone for a whole transfer of
 * at most 256 MiB (--size times --flows times --streams) without --duration, C2 otherwise; PACELAB_SIM_JIT overrides
 * and any other value of it is a one-sentence error with exit status 2.
 */
class SimJitChoiceTest {
    private static final Path SCRIPT = Path.of("").toAbsolutePath().getParent().resolve("scripts/sim-jit.sh");

    private record Answer(int status, String out, String err) {}

    private static Answer choose(String env, String... args) throws IOException, InterruptedException {
        assertTrue(Files.isRegularFile(SCRIPT), SCRIPT.toString());
        List<String> cmd = new ArrayList<>(List.of("bash", "-c", "source \"$0\"; pacelab_sim_jit \"$@\"", SCRIPT.toString(), "sim"));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().remove("PACELAB_SIM_JIT");
        if (env != null) {
            pb.environment().put("PACELAB_SIM_JIT", env);
        }
        Process p = pb.start();
        p.getOutputStream().close();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "sim-jit.sh did not end");
        return new Answer(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip(),
                new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).strip());
    }

    private static String jit(String... args) throws IOException, InterruptedException {
        Answer a = choose(null, args);
        assertEquals(0, a.status(), a.err());
        return a.out();
    }

    @Test
    void aShortTransferRunsOnC1AndALongOneOrATimedOneOnBothCompilers() throws Exception {
        assertEquals("c1", jit());                                  // 100 MiB
        assertEquals("c1", jit("--size", "256MiB"));
        assertEquals("tiered", jit("--size=257MiB"));
        assertEquals("tiered", jit("--size", "1g"));
        assertEquals("c1", jit("--size", "10485760"));
        assertEquals("tiered", jit("--duration", "10s"));
        assertEquals("tiered", jit("--size", "10MiB", "--duration=10s"));
    }

    @Test
    void flowsAndStreamsMultiplyTheTransfer() throws Exception {
        assertEquals("tiered", jit("--size", "100MiB", "--flows", "8"));    // 800 MiB
        assertEquals("tiered", jit("--flows", "3"));                        // 3 x the default 100 MiB
        assertEquals("c1", jit("--flows=2", "--size", "128MiB"));          // 256 MiB
        assertEquals("tiered", jit("--flows=2", "--size", "129MiB"));
        assertEquals("c1", jit("--dc", "batch=100", "--flows", "dc,a,b", "--size", "80MiB"));
        assertEquals("tiered", jit("--dc", "batch=100", "--flows", "dc,a,b", "--size", "90MiB"));
        assertEquals("tiered", jit("--streams", "3"));
        assertEquals("c1", jit("--streams", "2", "--size", "128mib"));
        assertEquals("tiered", jit("--streams", "2", "--flows", "2", "--size", "65MiB"));
    }

    @Test
    void valuesTheSimulatorRefusesLeaveItToTheJvmToSaySo() throws Exception {
        assertEquals("tiered", jit("--size", "abc"));
        assertEquals("tiered", jit("--flows", "-1"));
        assertEquals("tiered", jit("--streams", "two"));
    }

    @Test
    void pacelabSimJitOverridesAndAnUnknownValueIsAnError() throws Exception {
        assertEquals("tiered", choose("tiered").out());
        assertEquals("c1", choose("c1", "--size", "1GiB").out());
        assertEquals("c1", choose("auto").out());
        assertEquals("c1", choose("").out());
        Answer bad = choose("C2");
        assertEquals(2, bad.status());
        assertEquals("", bad.out());
        assertEquals("pacelab: PACELAB_SIM_JIT='C2' is not a JIT choice; valid: auto (the default: C1 for short simulations), "
                + "c1, tiered.", bad.err());
    }
}
