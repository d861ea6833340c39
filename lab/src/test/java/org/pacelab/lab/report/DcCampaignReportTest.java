package org.pacelab.lab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.pacelab.analysis.summary.Summary;
import org.pacelab.analysis.summary.SummaryField;

class DcCampaignReportTest {
    private static Summary run(double jfi, double dc, String flows) {
        return new Summary().put(SummaryField.FLOWS, 3).put(SummaryField.JFI, jfi).put(SummaryField.DC_FLOW_MBPS, dc)
                .put(SummaryField.FLOW_MBPS, flows).put(SummaryField.TOTAL_MBPS, 30.0);
    }

    @Test
    void rowsAverageRepetitionsAndSplitThePerFlowRates() {
        DcCampaignReport.Row r = DcCampaignReport.row("pacelab batch=100", "pacelab", Map.of("batch", "100"),
                List.of(run(0.8, 10, "dc=10.00 a=12.00 b=8.00"), run(0.9, 14, "dc=14.00 a=10.00 b=8.00")));
        assertEquals(2, r.runs());
        assertEquals(0.85, r.jfi(), 1e-12);
        assertEquals(0.05, r.jfiSd(), 1e-12);
        assertEquals(12.0, r.dcFlowMbps(), 1e-12);
        assertEquals(Map.of("dc", 12.0, "a", 11.0, "b", 8.0), r.flowMbps());
        assertTrue(Double.isNaN(r.pathAUtilization()));
        DcCampaignReport.Row twoA = DcCampaignReport.row("x", "pacelab", Map.of(), List.of(run(1, 1, "dc=1 a=2 a=3")));
        assertEquals(Map.of("dc", 1.0, "a", 2.0, "a2", 3.0), twoA.flowMbps());
    }

    @Test
    void sweptValuesBecomeNumbers() {
        assertEquals(150, DcCampaignReport.x("batch", "150"), 1e-12);
        assertEquals(90, DcCampaignReport.x("ratio", "9:1"), 1e-12);
        assertEquals(30, DcCampaignReport.x("ratio", "30%"), 1e-12);
        assertEquals(2.4, DcCampaignReport.x("b.rate", "2400kbit"), 1e-12);
        assertEquals(50, DcCampaignReport.x("b.delay", "50ms"), 1e-12);
        assertEquals(2, DcCampaignReport.x("a.loss", "2%"), 1e-12);
        assertTrue(Double.isNaN(DcCampaignReport.x("split", "duplicate")));
        assertEquals(5, DcCampaignReport.x("rate", "50mbit:10mbit"), 1e-12);
        assertEquals(0.25, DcCampaignReport.x("delay", "4ms:16ms"), 1e-12);
        assertEquals(1, DcCampaignReport.x("loss", "1%:0%"), 1e-12);
        assertEquals("batch size (packets)", DcCampaignReport.axisLabel("batch"));
    }

    @Test
    void theSweptAxisIsTheFirstKeyThatVaries() {
        Map<String, String> p1 = new LinkedHashMap<>(), p2 = new LinkedHashMap<>();
        p1.put("cc", "cubic");
        p1.put("batch", "10");
        p2.put("cc", "cubic");
        p2.put("batch", "100");
        DcCampaignReport.Row a = DcCampaignReport.row("a", "pacelab", p1, List.of(run(1, 1, "dc=1")));
        DcCampaignReport.Row b = DcCampaignReport.row("b", "pacelab", p2, List.of(run(1, 1, "dc=1")));
        assertEquals("batch", DcCampaignReport.sweptAxis(List.of(a, b)));
        assertNull(DcCampaignReport.sweptAxis(List.of(a)));
        assertTrue(DcCampaignReport.text(List.of(a, b)).lines().count() == 3);
    }
}
