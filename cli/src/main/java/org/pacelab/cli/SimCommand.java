package org.pacelab.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

import org.pacelab.analysis.dc.DcRunReport;
import org.pacelab.analysis.summary.SummaryText;
import org.pacelab.lab.dc.DcRunOutputs;
import org.pacelab.net.log.EventLogReader;
import org.pacelab.net.spec.SpecException;
import org.pacelab.sim.SimOptions;
import org.pacelab.sim.SimResult;
import org.pacelab.sim.SimScenario;
import org.pacelab.sim.Simulation;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code pacelab sim}: one transfer between a pacelab server and client through the emulator's link model, in
 * deterministic virtual time, with modelled hosts. The same option names as {@code pacelab server / client /
 * emulate}; the outputs are those of an emulated run plus the analyzer's summary.
 */
@Command(name = "sim", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Simulates a download from a pacelab server to a pacelab client through the link model in virtual "
                + "time: the real QUIC stack and HTTP/3 apps on modelled hosts (timer lateness, system-call costs, GSO, "
                + "fq/etf qdiscs). Same seed and options, same bytes.",
                "Writes DIR/tap.pcapng, DIR/events.bin, DIR/qlog/, DIR/keys.log, DIR/client.json, DIR/sim.json and the "
                + "analyzer's DIR/summary.json, packets.csv, timeline.csv.",
                "Dual connectivity (--dc, as on 'pacelab emulate'): two downlink paths behind a splitter and a reordering "
                + "receiver; --flows gives several client/server pairs sharing the link (dc, a, b), each with its own "
                + "client (DIR/flow-N/client.json). Such runs are measured from the event log as relay runs are: "
                + "DIR/summary.json (jfi, flow_mbps, path utilization, reordering), dc-summary.json, dc-timeline.csv, "
                + "dc-report.html and figures."},
        footer = {"", "Example:",
                "  pacelab sim --preset quic-steps --size 100MiB --cc cubic --pacer interval --seed 7 --out runs/cubic/7",
                "  pacelab sim --size 10MiB --pacer none --gso 16 --out runs/gso16",
                "  pacelab sim --size 10MiB --gso 16 --paced-gso --txtime --qdisc fq --out runs/paced-gso",
                "  pacelab sim --dc \"batch=100 ratio=1:1\" --path-a rate=20mbit --path-b rate=20mbit --flows dc,a,b "
                + "--duration 30s --tap off --out runs/dc-fairness"},
        subcommands = {SimCalibrateCommand.class})
public final class SimCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--out", converter = PathChecks.OutputDirectory.class, paramLabel = "DIR", description = "Directory for the run's files (required).")
    Path out;

    @Option(names = "--preset", paramLabel = "NAME", description = "Link preset: quic-steps, interop-simple-p2p, none (default: quic-steps).")
    String preset;
    @Option(names = "--down", paramLabel = "SPEC", description = "Overrides of the server-to-client direction, e.g. \"rate=20mbit queue=2bdp\".")
    String down;
    @Option(names = "--up", paramLabel = "SPEC", description = "Overrides of the client-to-server direction.")
    String up;
    @Option(names = "--dc", paramLabel = "SPEC", description = "Dual connectivity: split the downlink over two paths "
            + "(split, batch, ratio, t-reordering, ...; the grammar of 'pacelab emulate --dc'); --preset and --down do not apply.")
    String dc;
    @Option(names = "--path-a", paramLabel = "SPEC", description = "With --dc: link fields of path a (default: rate=20mbit "
            + "queue=100p delay=10ms jitter=normal:cov=0.1).")
    String pathA;
    @Option(names = "--path-b", paramLabel = "SPEC", description = "With --dc: link fields of path b (same default).")
    String pathB;
    @Option(names = "--flows", paramLabel = "MODES", description = "Client/server pairs sharing the link and how each uses "
            + "the paths: a list of dc (both, as --dc says), a, b (e.g. dc,a,b: the study's fairness setup), or a count "
            + "(default: dc, one pair).")
    String flows;
    @Option(names = "--duration", paramLabel = "TIME", description = "Each client downloads for this long of virtual time, "
            + "then closes (default: until --size has arrived).")
    String duration;
    @Option(names = "--seed", paramLabel = "N", description = "The run's seed; every random draw derives from it (default: 1).")
    String seed;
    @Option(names = "--size", paramLabel = "SIZE", description = "Bytes per download, e.g. 100MiB (default: 100MiB).")
    String size;
    @Option(names = "--streams", paramLabel = "N", description = "Concurrent downloads over the connection (default: 1).")
    String streams;
    @Option(names = "--alpn", paramLabel = "PROTO", description = "h3 or hq-interop (default: h3).")
    String alpn;
    @Option(names = "--timeout", paramLabel = "TIME", description = "Virtual time after which the client gives up (default: 300s).")
    String timeout;
    @Option(names = "--ack-threshold", paramLabel = "N", description = "The client acknowledges every N ack-eliciting packets (default: 2, RFC 9000).")
    String ackThreshold;

    // --gso, --sendmmsg, --txtime, --paced-gso, --pacing-lookahead, --recv-batch and --send come from TransportOptions
    // (the same names as on pacelab server); the simulator models them for the server's host
    @Option(names = "--qdisc", paramLabel = "KIND", description = "Server qdisc: pfifo, fq, etf (default: pfifo).")
    String qdisc;
    @Option(names = "--fq-quantum", paramLabel = "SIZE", description = "fq: per-round flow credit (default: 3028b).")
    String fqQuantum;
    @Option(names = "--fq-initial-quantum", paramLabel = "SIZE", description = "fq: credit of a new flow (default: 15140b).")
    String fqInitialQuantum;
    @Option(names = "--fq-horizon", paramLabel = "TIME", description = "fq: send times further ahead are dropped (default: 10s).")
    String fqHorizon;
    @Option(names = "--fq-flow-limit", paramLabel = "N", description = "fq: packets per flow (default: 100).")
    String fqFlowLimit;
    @Option(names = "--fq-timer-slack", paramLabel = "TIME", description = "fq: watchdog timer slack (default: 10us).")
    String fqTimerSlack;
    @Option(names = "--etf-delta", paramLabel = "TIME", description = "etf: release this long before the send time (default: 300us).")
    String etfDelta;
    @Option(names = "--host-model", paramLabel = "NAME|FILE",
            description = "Host timing: default (this machine, shared), realtime (this machine at SCHED_FIFO), ideal, or a file from 'pacelab sim calibrate'.")
    String hostModel;
    @Option(names = "--client-send", paramLabel = "STRATEGY", description = "The client's send strategy (default: park).")
    String clientSend;
    @Option(names = "--flow-starts", paramLabel = "TIMES", description = "With several --flows: when each pair's client "
            + "starts, after the run's start, one time per flow in --flows order (e.g. 0s,2s,2s; default: all at once); each "
            + "downloads for --duration from its own start.")
    String flowStarts;
    @Option(names = "--servers", paramLabel = "shared|per-flow", description = "With several --flows: one server host "
            + "serves them all (shared, as in relay mode; default) or each pair has its own (per-flow, as in netns mode).")
    String servers;

    @Option(names = "--snaplen", paramLabel = "BYTES", description = "Bytes of each packet kept in the tap (default: all).")
    String snaplen;
    @Option(names = "--tap", paramLabel = "on|off", description = "Write DIR/tap.pcapng (default: on; the analyzer of a "
            + "single-path single-flow run needs it).")
    String tap;
    @Option(names = "--qlog", paramLabel = "on|off", description = "Write the server's qlogs into DIR/qlog (default: on).")
    String qlog;
    @Option(names = "--client-qlog", description = "Also write the client's qlog.")
    boolean clientQlog;
    @Option(names = "--no-analyze", description = "Do not run the analyzer (no summary.json, packets.csv, timeline.csv).")
    boolean noAnalyze;

    @Mixin
    TransportOptions transport = new TransportOptions();

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter stdout = spec.commandLine().getOut();
        if (out == null) {
            err.println("pacelab sim: --out DIR is required (where the run's files go).");
            return 2;
        }
        if (transport.qlogDir != null || transport.keylog != null) {
            err.println("pacelab sim: --qlog-dir and --keylog are for real endpoints; a simulation writes its qlogs to DIR/qlog and its key log to DIR/keys.log.");
            return 2;
        }
        SimScenario scenario;
        try {
            scenario = SimOptions.parse(options(), out);
        } catch (IllegalArgumentException e) {
            err.println("pacelab sim: " + e.getMessage());
            return 2;
        }
        SimResult r;
        try {
            r = Simulation.run(scenario);
        } catch (IOException e) {
            err.println("pacelab sim: " + e.getMessage());
            return 1;
        }
        stdout.printf(Locale.ROOT, "%s; %.3f s of virtual time in %.3f s (%.1fx real time); goodput %.2f Mbit/s%n",
                r.outcome(), r.virtualNanos() / 1e9, r.wallNanos() / 1e9, r.speedup(), r.goodputMbps());
        if (r.flows().size() > 1) {
            for (SimResult.FlowResult f : r.flows()) {
                stdout.printf(Locale.ROOT, "  flow %d (%s) client %s:%d: %d body bytes, %.2f Mbit/s; %s%n", f.flow(),
                        f.mode().label(), f.client().getAddress().getHostAddress(), f.client().getPort(), f.bodyBytes(),
                        f.goodputMbps(), f.outcome());
            }
        }
        if (r.analysis() != null) {
            stdout.print(SummaryText.format(r.analysis().summary()));
        }
        if (scenario.multiFlowOrDc() && scenario.analyze()) {
            try {
                DcRunOutputs.Written w = DcRunOutputs.write(r.files().events(), out, scenario.dc(), description -> true);
                stdout.print(DcRunReport.text(w.result().summary()));
            } catch (IOException | EventLogReader.EventLogFormatException | SpecException e) {
                err.println("pacelab sim: the analysis of " + r.files().events() + " failed: " + e.getMessage());
                return 1;
            }
        }
        stdout.println("files in " + out);
        stdout.flush();
        return r.completed() ? 0 : 1;
    }

    /** The options given, by name, as {@link SimOptions#parse} takes them. */
    private Map<String, String> options() {
        Map<String, String> m = new LinkedHashMap<>();
        put(m, "--preset", preset);
        put(m, "--down", down);
        put(m, "--up", up);
        put(m, "--dc", dc);
        put(m, "--path-a", pathA);
        put(m, "--path-b", pathB);
        put(m, "--flows", flows);
        put(m, "--duration", duration);
        put(m, "--tap", tap);
        put(m, "--qlog", qlog);
        put(m, "--seed", seed);
        put(m, "--size", size);
        put(m, "--streams", streams);
        put(m, "--alpn", alpn);
        put(m, "--timeout", timeout);
        put(m, "--ack-threshold", ackThreshold);
        put(m, "--gso", transport.gso);
        put(m, "--sendmmsg", transport.sendmmsg);
        if (transport.txtime) m.put("--txtime", "on");
        if (transport.pacedGso) m.put("--paced-gso", "on");
        put(m, "--pacing-lookahead", transport.pacingLookahead);
        put(m, "--recv-batch", transport.recvBatch);
        put(m, "--qdisc", qdisc);
        put(m, "--fq-quantum", fqQuantum);
        put(m, "--fq-initial-quantum", fqInitialQuantum);
        put(m, "--fq-horizon", fqHorizon);
        put(m, "--fq-flow-limit", fqFlowLimit);
        put(m, "--fq-timer-slack", fqTimerSlack);
        put(m, "--etf-delta", etfDelta);
        put(m, "--host-model", hostModel);
        put(m, "--client-send", clientSend);
        put(m, "--servers", servers);
        put(m, "--flow-starts", flowStarts);
        put(m, "--snaplen", snaplen);
        if (clientQlog) m.put("--client-qlog", "on");
        if (noAnalyze) m.put("--analyze", "off");
        m.putAll(transport.congestionOptions());
        put(m, "--send", transport.send);
        m.put("--ciphers", String.join(",", transport.ciphers));
        m.put("--max-udp-payload", Integer.toString(transport.maxUdpPayload));
        m.put("--idle-timeout", transport.idleTimeout + "ns");
        m.put("--udp-buffer", transport.udpBuffer + "b");
        m.put("--key-update", Long.toString(transport.keyUpdate));
        return m;
    }

    private static void put(Map<String, String> m, String key, String value) {
        if (value != null) {
            m.put(key, value);
        }
    }
}
