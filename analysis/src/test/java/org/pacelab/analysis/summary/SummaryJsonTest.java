package org.pacelab.analysis.summary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SummaryJsonTest {
    @TempDir
    Path dir;

    @Test
    void nullMetricsCarryTheirReasonAndRoundTrip() throws IOException {
        Summary s = new Summary().put(SummaryField.PACKETS, 10).put(SummaryField.PTL1_SHARE, 0.25)
                .put(SummaryField.PROTOCOL, "quic").put(SummaryField.CAPTURE_TRUNCATED, false)
                .unavailable(SummaryField.PRECISION_US, "no qlog given (--qlog)");
        Path f = dir.resolve("summary.json");
        SummaryJson.write(s, f);
        JsonNode j = new ObjectMapper().readTree(f.toFile());
        assertTrue(j.get("precision_us").isNull());
        assertEquals("no qlog given (--qlog)", j.get("precision_us_reason").asText());
        assertEquals(10, j.get("packets").asLong());
        assertFalse(j.has("packets_reason"));
        assertTrue(j.get("capture_truncation").isNull());
        assertFalse(j.has("capture_truncation_reason"), "only metrics have reasons");
        Summary back = SummaryJson.read(f);
        assertEquals(0.25, back.number(SummaryField.PTL1_SHARE));
        assertEquals("no qlog given (--qlog)", back.reason(SummaryField.PRECISION_US));
        assertEquals(SummaryField.values().length + countMetricsWithoutValue(s), j.size());
    }

    private static long countMetricsWithoutValue(Summary s) {
        long n = 0;
        for (SummaryField f : SummaryField.values()) {
            if (f.metric() && !s.has(f)) {
                n++;
            }
        }
        return n;
    }

    @Test
    void keysAreFlatSnakeCase() {
        Pattern snake = Pattern.compile("[a-z][a-z0-9]*(_[a-z0-9]+)*");
        for (SummaryField f : SummaryField.values()) {
            assertTrue(snake.matcher(f.jsonName()).matches(), f.jsonName());
        }
    }

    @Test
    void wronglyTypedFieldIsNamed() throws IOException {
        Path f = Files.writeString(dir.resolve("bad.json"), "{\"packets\": \"many\"}");
        IOException e = assertThrows(IOException.class, () -> SummaryJson.read(f));
        assertTrue(e.getMessage().contains("packets") && e.getMessage().contains("integer"), e.getMessage());
    }

    @Test
    void everyFieldIsDocumentedInTheSchema() throws IOException {
        Path doc = Path.of("..", "docs", "analysis-summary-schema.md");
        String text = Files.readString(doc);
        for (SummaryField f : SummaryField.values()) {
            assertTrue(text.contains("`" + f.jsonName() + "`"), "docs/analysis-summary-schema.md lacks " + f.jsonName());
        }
    }
}
