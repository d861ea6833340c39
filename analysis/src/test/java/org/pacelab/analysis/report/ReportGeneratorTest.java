package org.pacelab.analysis.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.imageio.ImageIO;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.analysis.AnalysisOptions;
import org.pacelab.analysis.CaptureAnalyzer;
import org.pacelab.analysis.RunResult;
import org.pacelab.analysis.summary.SummaryField;
import org.pacelab.analysis.summary.SummaryJson;
import org.pacelab.analysis.table.TimelineCsv;
import org.pacelab.analysis.testing.SyntheticTransfer;
import org.pacelab.quic.crypto.CipherSuite;

class ReportGeneratorTest {
    @TempDir
    Path dir;

    private static final long T = 1_700_000_000_000_000_000L;

    /** Writes one analysed run into results/<config>/<run>/ as 'pacelab analyze --out' does. */
    private RunResult run(String config, int rep, long jitterNs, long spacingNs) throws IOException {
        int n = 60 + rep * 10;
        long[] intended = new long[n];
        long[] wire = new long[n];
        for (int i = 0; i < n; i++) {
            intended[i] = T + i * spacingNs;
            wire[i] = intended[i] + (i % 2 == 0 ? jitterNs : -jitterNs);
        }
        Path raw = dir.resolve("raw").resolve(config + rep);
        SyntheticTransfer.Files3 f = SyntheticTransfer.write(raw, wire, intended, 40e6, CipherSuite.AES_128_GCM_SHA256);
        Path out = dir.resolve("results").resolve(config).resolve(Integer.toString(rep));
        RunResult r = CaptureAnalyzer.analyze(AnalysisOptions.of(f.capture()).withKeyLog(f.keyLog()).withQlog(f.qlogDir())
                .withTransferBytes(n * 1100L).withPacketsCsv(out.resolve(RunDirectories.PACKETS)), Integer.toString(rep));
        SummaryJson.write(r.summary(), out.resolve(RunDirectories.SUMMARY));
        TimelineCsv.write(r.timeline(), out.resolve(RunDirectories.TIMELINE));
        return r;
    }

    @Test
    void twoConfigurationsGivePageFiguresAndNumbersEqualToTheJson() throws IOException {
        RunResult paced1 = run("paced", 1, 10_000, 300_000);
        run("paced", 2, 20_000, 300_000);
        run("bursty", 1, 5_000, 40_000);
        run("bursty", 2, 5_000, 60_000);
        List<ConfigurationRuns> configs = RunDirectories.fromLayout(dir.resolve("results"));
        assertEquals(List.of("bursty", "paced"), configs.stream().map(ConfigurationRuns::name).toList());

        RunResult loaded = configs.get(1).runs().getFirst();
        assertEquals(paced1.distributions().trains().trains(), loaded.distributions().trains().trains());
        assertEquals(paced1.distributions().gaps().count(), loaded.distributions().gaps().count());
        assertEquals(paced1.distributions().sendDelays().count(), loaded.distributions().sendDelays().count());

        Path out = dir.resolve("report");
        ReportGenerator.Report report = ReportGenerator.write(out, "test report", configs);
        assertTrue(report.figuresNotDrawn().isEmpty(), report.figuresNotDrawn().toString());
        assertEquals(8, report.figureFiles().size());
        for (Path p : report.figureFiles()) {
            assertTrue(Files.size(p) > 1000, p + " is too small");
            if (p.toString().endsWith(".png")) {
                BufferedImage img = ImageIO.read(p.toFile());
                assertEquals(900, img.getWidth());
            } else {
                assertTrue(Files.readString(p).contains("<svg"));
            }
        }
        String html = Files.readString(report.html());
        assertTrue(html.contains("<svg"), "figures are inlined");
        JsonNode agg = new ObjectMapper().readTree(report.aggregateJson().toFile());
        int checked = 0;
        for (JsonNode c : agg.get("configurations")) {
            String name = c.get("configuration").asText();
            String row = row(html, name);
            for (SummaryField f : HtmlReport.TABLE) {
                JsonNode mean = c.get(f.jsonName() + "_mean");
                Matcher m = Pattern.compile("data-field=\"" + f.jsonName() + "\"([^>]*)>([^<]*)").matcher(row);
                assertTrue(m.find(), f.jsonName());
                if (mean.isNull()) {
                    assertEquals("n/a", m.group(2));
                    continue;
                }
                double std = c.get(f.jsonName() + "_std").asDouble();
                assertTrue(m.group(1).contains("data-mean=\"" + mean.asDouble() + "\""), m.group(1));
                assertEquals(HtmlReport.meanStd(mean.asDouble(), std), m.group(2).strip(), f.jsonName());
                checked++;
            }
        }
        assertTrue(checked >= 10, "cells with values checked: " + checked);
        JsonNode paced = agg.get("configurations").get(1);
        assertEquals(15.0, paced.get("precision_us_mean").asDouble(), 1e-6);   // runs with 10 and 20 µs
        assertEquals(5.0, paced.get("precision_us_std").asDouble(), 1e-6);    // population std
        assertEquals(2, paced.get("precision_us_n").asInt());
        assertEquals(1.0, paced.get("ptl1_share_mean").asDouble(), 1e-12);
        assertTrue(paced.get("drops_mean").isNull());
        assertTrue(paced.get("drops_reason").asText().contains("--events"));
        String table = ReportTable.text(report.aggregates());
        assertTrue(table.contains(HtmlReport.meanStd(15.0, 5.0)), table);
    }

    private static String row(String html, String config) {
        int at = html.indexOf("<tr data-configuration=\"" + config + "\">");
        assertTrue(at >= 0, config);
        return html.substring(at, html.indexOf("</tr>", at));
    }

    @Test
    void badArgumentsAreOneSentence() throws IOException {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RunDirectories.fromArgument("cubic"));
        assertTrue(e.getMessage().contains("NAME=RUN_DIR"), e.getMessage());
        IOException missing = assertThrows(IOException.class, () -> RunDirectories.load(dir.resolve("nope")));
        assertTrue(missing.getMessage().contains("summary.json"), missing.getMessage());
        Files.createDirectories(dir.resolve("empty"));
        IOException empty = assertThrows(IOException.class, () -> RunDirectories.fromLayout(dir.resolve("empty")));
        assertTrue(empty.getMessage().contains("<config>/<run>/summary.json"), empty.getMessage());
    }
}
