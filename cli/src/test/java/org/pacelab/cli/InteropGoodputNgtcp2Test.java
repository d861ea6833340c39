package org.pacelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The runner's goodput measurement between pacelab and ngtcp2 (Debian's gtlsserver and gtlsclient) in both roles, with
 * 2 repetitions instead of the runner's 5 to stay short: every repetition's 10 MiB file arrives intact, the cell has
 * n 2, and each repetition's goodput is its bytes over its transfer time. No speed is asserted: the numbers depend on
 * the host's load. A failed cell's directory is kept and named.
 */
@Tag("interop")
class InteropGoodputNgtcp2Test {
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path tmp;

    @ParameterizedTest(name = "goodput: {0} serves {1}")
    @CsvSource(textBlock = """
            pacelab, ngtcp2
            ngtcp2,  pacelab
            """)
    void everyRepetitionDeliversTheFileAndHasItsGoodput(String server, String client) throws Exception {
        CampaignPreconditions.requireProgram("gtlsserver", "ngtcp2-server");
        CampaignPreconditions.requireProgram("gtlsclient", "ngtcp2-client");
        CampaignPreconditions.requireProgram("tshark", "tshark");
        Path out = tmp.resolve("matrix");
        CliRun r = CliRun.of("interop", "--servers", server, "--clients", client, "--measurements", "goodput", "--repetitions", "2",
                "--out", out.toString());
        Path cellDir = out.resolve("runs").resolve(server + "_" + client).resolve("goodput");
        JsonNode cell = new ObjectMapper().readTree(Files.readString(cellDir.resolve("result.json")));
        assertEquals("succeeded", cell.get("result").asText(), server + " -> " + client + ": " + cell.get("reason").asText()
                + " (kept: " + cellDir + ")");
        assertEquals(0, r.code(), r.out() + r.err());
        JsonNode m = cell.get("measurement");
        assertEquals(2, m.get("n").asInt());
        assertEquals(2, m.get("repetitions").size());
        double sum = 0;
        for (JsonNode rep : m.get("repetitions")) {
            assertTrue(rep.get("reason").asText().endsWith("file intact"), rep.toString());
            assertEquals(10L << 20, rep.get("bytes").asLong());
            double kbps = 8.0 * rep.get("bytes").asLong() / (rep.get("transfer_seconds").asDouble() * 1000);
            assertEquals(Math.round(kbps * 10) / 10.0, rep.get("goodput").asDouble(), 0.051, rep.toString());
            sum += rep.get("goodput").asDouble();
        }
        assertEquals(sum / 2, m.get("mean").asDouble(), 0.11);
    }
}
