package org.pacelab.analysis.report;

import java.awt.Rectangle;
import java.io.IOException;
import java.nio.file.Path;

import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.svg.SVGGraphics2D;

import org.pacelab.analysis.io.AtomicFiles;

/** Writes a chart as PNG and SVG (JFreeSVG) and returns the SVG element for inlining in HTML. */
public final class FigureFiles {
    private FigureFiles() {}

    /** The files of one figure and its SVG markup. */
    public record Figure(Path png, Path svg, String svgElement) {}

    public static Figure write(JFreeChart chart, Path dir, String baseName) throws IOException {
        Path png = dir.resolve(baseName + ".png");
        Path svg = dir.resolve(baseName + ".svg");
        AtomicFiles.write(png, out -> ChartUtils.writeChartAsPNG(out, chart, ChartStyle.WIDTH, ChartStyle.HEIGHT));
        SVGGraphics2D g = new SVGGraphics2D(ChartStyle.WIDTH, ChartStyle.HEIGHT);
        chart.draw(g, new Rectangle(0, 0, ChartStyle.WIDTH, ChartStyle.HEIGHT));
        String document = g.getSVGDocument();
        AtomicFiles.writeString(svg, document);
        return new Figure(png, svg, g.getSVGElement(baseName));
    }
}
