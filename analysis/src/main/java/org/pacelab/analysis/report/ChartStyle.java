package org.pacelab.analysis.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;

import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYItemRenderer;
import org.jfree.chart.title.LegendTitle;
import org.jfree.chart.ui.RectangleEdge;

/** One look for every figure: white background, light grid, the Okabe–Ito colour-blind-safe palette. */
public final class ChartStyle {
    public static final int WIDTH = 900;
    public static final int HEIGHT = 480;
    private static final Color[] PALETTE = {
            new Color(0x0072B2), new Color(0xD55E00), new Color(0x009E73), new Color(0xCC79A7),
            new Color(0xE69F00), new Color(0x56B4E9), new Color(0x000000), new Color(0xF0E442),
    };
    private static final Font TITLE = new Font("DejaVu Sans", Font.BOLD, 16);
    private static final Font AXIS = new Font("DejaVu Sans", Font.PLAIN, 13);
    private static final Font TICKS = new Font("DejaVu Sans", Font.PLAIN, 12);

    private ChartStyle() {}

    public static Color colour(int series) {
        return PALETTE[series % PALETTE.length];
    }

    public static JFreeChart apply(JFreeChart chart) {
        chart.setBackgroundPaint(Color.WHITE);
        chart.setPadding(new org.jfree.chart.ui.RectangleInsets(4, 4, 4, 28)); // room for the last tick label
        chart.getTitle().setFont(TITLE);
        XYPlot plot = chart.getXYPlot();
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(new Color(0xDDDDDD));
        plot.setRangeGridlinePaint(new Color(0xDDDDDD));
        plot.setOutlinePaint(new Color(0x999999));
        plot.getDomainAxis().setLabelFont(AXIS);
        plot.getRangeAxis().setLabelFont(AXIS);
        plot.getDomainAxis().setTickLabelFont(TICKS);
        plot.getRangeAxis().setTickLabelFont(TICKS);
        XYItemRenderer r = plot.getRenderer();
        for (int i = 0; i < plot.getDataset().getSeriesCount(); i++) {
            r.setSeriesPaint(i, colour(i));
            r.setSeriesStroke(i, new BasicStroke(2.0f));
        }
        LegendTitle legend = chart.getLegend();
        if (legend != null) {
            legend.setItemFont(AXIS);
            legend.setPosition(RectangleEdge.BOTTOM);
        }
        return chart;
    }
}
