package org.pacelab.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import org.pacelab.analysis.AnalysisOptions;
import org.pacelab.analysis.CaptureAnalyzer;
import org.pacelab.analysis.RunResult;
import org.pacelab.analysis.summary.SummaryField;
import org.pacelab.analysis.summary.SummaryJson;
import org.pacelab.analysis.summary.SummaryText;
import org.pacelab.analysis.table.TimelineCsv;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code pacelab analyze}: pacing metrics of one capture. */
@Command(name = "analyze", mixinStandardHelpOptions = true,
        description = {
                "Measures a capture of one transfer: inter-packet gaps, packet trains, goodput, drops, retransmissions",
                "and pacing precision of the server's packets (QUIC or TCP), with the QUIC Steps study's definitions.",
                "Writes a JSON summary (docs/analysis-summary-schema.md) and a per-packet CSV table."},
        footer = {"", "Example:",
                "  pacelab analyze tap.pcapng --keylog keys.log --qlog qlog/ --out results/cubic/1"})
public final class AnalyzeCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(converter = PathChecks.InputFile.class, index = "0", paramLabel = "CAPTURE", description = "pcap or pcapng file")
    Path capture;

    @Option(names = "--keylog", converter = PathChecks.InputFile.class, paramLabel = "FILE", description = "NSS key log (SSLKEYLOGFILE) to recover QUIC packet numbers")
    Path keyLog;

    @Option(names = "--qlog", converter = PathChecks.InputPath.class, paramLabel = "DIR|FILE", description = "the server's qlog (file, or directory of *.sqlog/*.qlog)")
    Path qlog;

    @Option(names = "--events", converter = PathChecks.InputFile.class, paramLabel = "FILE", description = "the emulator's event log, for bottleneck drops")
    Path events;

    @Option(names = "--client-log", converter = PathChecks.InputFile.class, paramLabel = "FILE", description = "JSON log of 'pacelab client --json', for goodput")
    Path clientLog;

    @Option(names = "--server-port", paramLabel = "PORT", description = "the server's port (default: found from the handshake)")
    Integer serverPort;

    @Option(names = "--threshold", paramLabel = "TIME", defaultValue = "0.1ms", converter = UnitConverters.Duration.class,
            description = "packet-train threshold: a gap below it continues a train (default: ${DEFAULT-VALUE})")
    long thresholdNs;

    @Option(names = "--bytes", paramLabel = "SIZE", converter = UnitConverters.Size.class,
            description = "application bytes transferred, when there is no client log (e.g. 100MiB)")
    Long transferBytes;

    @Option(names = "--path-capacity", paramLabel = "SIZE", converter = UnitConverters.Size.class,
            description = "what the emulated path holds without a drop (BDP plus buffer, e.g. 300000 or 293KiB), for the "
                    + "slow-start overshoot")
    Long pathCapacity;

    @Option(names = "--json", paramLabel = "FILE", description = "write the JSON summary here ('-' for standard output)")
    String json;

    @Option(names = "--packets-csv", converter = PathChecks.OutputFile.class, paramLabel = "FILE", description = "write the per-packet table here")
    Path packetsCsv;

    @Option(names = "--timeline-csv", converter = PathChecks.OutputFile.class, paramLabel = "FILE", description = "write the qlog's congestion timeline here")
    Path timelineCsv;

    @Option(names = "--out", converter = PathChecks.OutputDirectory.class, paramLabel = "DIR",
            description = "write summary.json, packets.csv and timeline.csv into DIR (the layout 'pacelab report' reads)")
    Path out;

    @Option(names = "--partial",
            description = "when the capture is damaged or cut short part-way, measure the packets before the damage "
                    + "(a warning names where) instead of failing with exit code 2")
    boolean partial;

    @Override
    public Integer call() throws IOException {
        validate();
        Path csv = packetsCsv != null ? packetsCsv : out != null ? out.resolve("packets.csv") : null;
        AnalysisOptions options = new AnalysisOptions(capture, keyLog, qlog, events, clientLog, serverPort, thresholdNs,
                transferBytes, csv, pathCapacity);
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter stdout = spec.commandLine().getOut();
        RunResult result;
        try {
            result = CaptureAnalyzer.analyze(options, runId());
        } catch (NoSuchFileException e) {
            err.println("pacelab analyze: " + e.getFile() + ": no such file");
            return ExitCode.BAD_INPUT;
        } catch (IOException e) {
            err.println("pacelab analyze: " + e.getMessage());
            return ExitCode.BAD_INPUT;
        }
        boolean damaged = Boolean.TRUE.equals(result.summary().get(SummaryField.CAPTURE_TRUNCATED));
        if (damaged && !partial) {
            String where = result.summary().string(SummaryField.CAPTURE_TRUNCATION);
            err.println("pacelab analyze: " + (where.startsWith(capture.toString()) ? "" : capture + ": ") + where
                    + "; nothing written (--partial measures the packets before it)");
            return ExitCode.BAD_INPUT;
        }
        Path jsonFile = json != null && !json.equals("-") ? Path.of(json) : out != null ? out.resolve("summary.json") : null;
        if (jsonFile != null) {
            SummaryJson.write(result.summary(), jsonFile);
        }
        Path timeline = timelineCsv != null ? timelineCsv : out != null ? out.resolve("timeline.csv") : null;
        if (timeline != null && result.timeline() != null) {
            TimelineCsv.write(result.timeline(), timeline);
        }
        if ("-".equals(json)) {
            stdout.print(SummaryJson.toText(result.summary()));
        } else {
            stdout.print(SummaryText.format(result.summary()));
        }
        stdout.flush();
        if (damaged) {
            err.println("pacelab analyze: warning: " + result.summary().string(SummaryField.CAPTURE_TRUNCATION)
                    + "; the results cover the packets before it");
        }
        return 0;
    }

    private String runId() {
        if (out != null && out.getFileName() != null) {
            return out.getFileName().toString();
        }
        String name = capture.getFileName().toString();
        int dot = name.lastIndexOf('.');
        return dot > 0 ? name.substring(0, dot) : name;
    }

    private void validate() {
        if (serverPort != null && (serverPort < 1 || serverPort > 65535)) {
            throw new ParameterException(spec.commandLine(), "--server-port must be 1..65535, got " + serverPort);
        }
        if (thresholdNs <= 0) {
            throw new ParameterException(spec.commandLine(), "--threshold must be a positive duration, e.g. 0.1ms");
        }
        if (transferBytes != null && transferBytes <= 0) {
            throw new ParameterException(spec.commandLine(), "--bytes must be a positive size, e.g. 100MiB");
        }
        if (pathCapacity != null && pathCapacity <= 0) {
            throw new ParameterException(spec.commandLine(), "--path-capacity must be a positive size, e.g. 300000 or 293KiB");
        }
        if (json != null && !json.equals("-")) {
            String problem = PathChecks.unwritableFile(Path.of(json));
            if (problem != null) {
                throw new ParameterException(spec.commandLine(), "Invalid value for option '--json': " + problem);
            }
        }
    }
}
