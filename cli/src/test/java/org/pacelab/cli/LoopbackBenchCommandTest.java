package org.pacelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code pacelab bench loopback}: its options, one small run of pacelab's own stack end to end, and one of every other
 * stack (with {@code CI=true} a peer that is not installed or built fails that test).
 */
class LoopbackBenchCommandTest {

    @Test
    void badOptionsAreOneSentenceAndExitTwo() {
        CliRun r = CliRun.of("bench", "loopback", "--peers", "quinn");
        assertEquals(2, r.code(), r.err());
        assertEquals("pacelab bench loopback: --peers: 'quinn' is not a stack here; valid: ngtcp2, picoquic, tcp", r.err().strip());
        r = CliRun.of("bench", "loopback", "--reps", "0");
        assertEquals(2, r.code());
        assertEquals("pacelab bench loopback: --reps must be 1 to 1000, got 0", r.err().strip());
        r = CliRun.of("bench", "loopback", "--pacelab", "--gso 4");
        assertEquals(2, r.code());
        assertTrue(r.err().startsWith("pacelab bench loopback: --pacelab '--gso 4': write NAME=OPTIONS"), r.err());
        r = CliRun.of("bench", "loopback", "--pacelab", "pacelab=", "--pacelab", "pacelab=--gso 1");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("two stacks have the same name"), r.err());
    }

    /** Each peer's server and client as the benchmark starts them: the file arrives intact and each side's CPU time is read. */
    @Test
    @Tag("interop")
    void everyPeerStackDownloadsTheFileIntact(@TempDir Path dir) throws Exception {
        CampaignPreconditions.requireProgram("gtlsserver", "ngtcp2-server");
        CampaignPreconditions.requireProgram("gtlsclient", "ngtcp2-client");
        CampaignPreconditions.requireProgram("nginx", "nginx");
        CampaignPreconditions.requireProgram("curl", "curl");
        CampaignPreconditions.requireBuilt("picoquic");
        Path json = dir.resolve("bench.json");
        CliRun r = CliRun.inChild(dir, "bench", "loopback", "--size", "1MiB", "--reps", "1", "--peers", "ngtcp2,picoquic,tcp",
                "--json", json.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("ratio pacelab / picoquic (medians): goodput "), r.out());
        JsonNode j = new ObjectMapper().readTree(Files.readString(json));
        List<String> stacks = new ArrayList<>();
        for (JsonNode run : j.get("runs")) {
            stacks.add(run.get("stack").asText());
            // ok: the client exited with 0 and its file in the downloads directory equals the original byte for byte
            assertTrue(run.get("ok").asBoolean(), run.toString());
            assertEquals(1L << 20, run.get("bytes").asLong());
            // (CPU times are not asserted: /proc counts 10 ms ticks, and a C client may need less for 1 MiB)
            assertTrue(run.get("server_start_ns").asLong() > 0, run.toString());
        }
        assertEquals(List.of("pacelab", "ngtcp2", "picoquic", "tcp"), stacks);
        assertTrue(j.get("stacks_described").get("picoquic").asText().startsWith("picoquic picoquicdemo -> picoquicdemo (HTTP/3"),
                j.get("stacks_described").toString());
    }

    @Test
    void optionStringsSplitOnSpacesAndKeepQuotedValues() {
        assertEquals(List.of("--gso", "1", "--send", "hybrid"), LoopbackBenchCommand.split(" --gso 1  --send hybrid "));
        assertEquals(List.of("--a", "x y", ""), LoopbackBenchCommand.split("--a 'x y' \"\""));
    }

    @Test
    void pacelabAloneDownloadsTheFileAndReportsCpuPerSide(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("bench.json");
        CliRun r = CliRun.inChild(dir, "bench", "loopback", "--size", "2MiB", "--reps", "1", "--peers", "",
                "--pacelab", "gso1=--gso 1", "--json", json.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("ratio pacelab / gso1 (medians): goodput "), r.out());
        JsonNode j = new ObjectMapper().readTree(Files.readString(json));
        assertEquals(2, j.get("runs").size());
        for (JsonNode run : j.get("runs")) {
            assertTrue(run.get("ok").asBoolean(), run.toString());
            assertEquals(2L << 20, run.get("bytes").asLong());
            assertTrue(run.get("client_cpu_ns").asLong() > 0, run.toString());
            assertTrue(run.get("server_cpu_ns").asLong() > 0, run.toString());
            assertTrue(run.get("server_start_ns").asLong() > 0, run.toString());
        }
    }
}
