package org.pacelab.analysis;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import org.pacelab.analysis.capture.CaptureReader;
import org.pacelab.analysis.clientlog.ClientLog;
import org.pacelab.analysis.metrics.NanosDistribution;
import org.pacelab.analysis.metrics.TrainLengths;
import org.pacelab.analysis.qlog.CongestionTimeline;
import org.pacelab.analysis.qlog.QlogTrace;
import org.pacelab.analysis.qlog.StartupEnd;
import org.pacelab.analysis.quic.QuicConnection;
import org.pacelab.analysis.summary.Summary;
import org.pacelab.analysis.summary.SummaryField;

import static org.pacelab.analysis.summary.SummaryField.*;

/** Turns the counters of an {@link AnalysisPass} and the side inputs into a run's {@link Summary}. */
final class SummaryAssembler {
    static final int VERSION = 1;

    private final AnalysisOptions options;
    private final String runId;
    private final CaptureReader reader;
    private final AnalysisPass pass;
    private final List<String> notes;
    private final Summary s = new Summary();
    /** The server qlog trace the congestion metrics come from, or null. */
    private QlogTrace mainTrace;
    /** Why there is no {@link #mainTrace}. */
    private String noTraceReason;

    SummaryAssembler(AnalysisOptions options, String runId, CaptureReader reader, AnalysisPass pass, List<String> notes) {
        this.options = options;
        this.runId = runId;
        this.reader = reader;
        this.pass = pass;
        this.notes = new ArrayList<>(notes);
    }

    RunResult result() throws IOException {
        capture();
        server();
        quic();
        gapsAndTrains();
        ClientLog clientLog = options.clientLog() == null ? null : ClientLog.read(options.clientLog());
        goodput(clientLog);
        CongestionTimeline timeline = qlog();
        drops();
        slowStart();
        if (notes.isEmpty()) {
            s.clear(NOTES);
        } else {
            s.put(NOTES, String.join(" ", notes.stream().map(n -> n.endsWith(".") ? n : n + ".").toList()));
        }
        return new RunResult(runId, s, pass.distributions, timeline);
    }

    private void capture() {
        s.put(SUMMARY_VERSION, VERSION);
        s.put(CAPTURE, options.capture().toString());
        s.put(CAPTURE_FORMAT, reader.format());
        s.put(CAPTURE_TRUNCATED, pass.truncation != null);
        if (pass.truncation != null) {
            s.put(CAPTURE_TRUNCATION, pass.truncation);
        }
        s.put(LINK_TYPES, reader.linkTypes().stream().map(String::valueOf).collect(Collectors.joining(",")));
        s.put(FRAMES, pass.frames);
        s.put(FRAMES_UNDECODED, pass.undecoded);
        s.put(THRESHOLD_US, options.thresholdNs() / 1000.0);
    }

    private void server() {
        if (pass.server == null) {
            String why = pass.frames == 0 ? "the capture holds no frames"
                    : options.serverPort() != null ? "no UDP or TCP packet uses port " + options.serverPort()
                    : "the capture holds no UDP or TCP packet that pacelab can decode";
            for (SummaryField f : List.of(PROTOCOL, SERVER, SERVER_DETECTION)) {
                s.unavailable(f, why);
            }
        } else {
            s.put(PROTOCOL, !pass.server.isQuic() ? "tcp" : pass.dissector.quicDatagrams() > 0 ? "quic" : "udp");
            s.put(SERVER, pass.server.endpoint().toString());
            s.put(SERVER_DETECTION, pass.server.method().jsonName());
        }
        s.put(CONNECTIONS, pass.server == null ? 0 : pass.server.isQuic() ? pass.dissector.connections().size() : pass.tcpFlows.size());
        s.put(PACKETS, pass.serverPackets);
        s.put(CLIENT_PACKETS, pass.clientPackets);
        s.put(SERVER_BYTES, pass.serverBytes);
        if (pass.serverPackets > 0) {
            s.put(FIRST_PACKET_TIME_NS, pass.firstServerNs);
            s.put(LAST_PACKET_TIME_NS, pass.lastServerNs);
        } else {
            s.unavailable(FIRST_PACKET_TIME_NS, noServerPackets());
            s.unavailable(LAST_PACKET_TIME_NS, noServerPackets());
        }
    }

    private String noServerPackets() {
        return pass.server == null ? "no server was found in the capture" : "the capture holds no packets from the server";
    }

    private void quic() {
        boolean quic = pass.server != null && pass.server.isQuic();
        if (!quic) {
            String why = pass.server == null ? noServerPackets() : "the server's flow is TCP, not QUIC";
            for (SummaryField f : List.of(QUIC_PACKETS, QUIC_PN_RECOVERED, SERVER_1RTT_PACKETS, PN_RECOVERED, CIPHER_SUITE)) {
                s.unavailable(f, why);
            }
            return;
        }
        var d = pass.dissector;
        s.put(QUIC_PACKETS, d.packetsWithNumber());
        s.put(SERVER_1RTT_PACKETS, d.server1RttPackets());
        String failure = mainFailure(d.failures());
        if (d.recovered() > 0) {
            s.put(QUIC_PN_RECOVERED, d.recovered());
        } else {
            s.unavailable(QUIC_PN_RECOVERED, d.packetsWithNumber() == 0 ? "the capture holds no QUIC packets with numbers" : failure);
        }
        if (d.server1RttRecovered() > 0) {
            s.put(PN_RECOVERED, d.server1RttRecovered());
            long missing = d.server1RttPackets() - d.server1RttRecovered();
            if (missing > 0) {
                notes.add(missing + " of " + d.server1RttPackets() + " server 1-RTT packet numbers were not recovered: "
                        + failure);
            }
        } else {
            s.unavailable(PN_RECOVERED, d.server1RttPackets() == 0 ? "the capture holds no server 1-RTT packets" : failure);
        }
        String suite = d.connections().stream().map(QuicConnection::cipherSuiteName).filter(n -> n != null).findFirst()
                .orElse(null);
        if (suite != null) {
            s.put(CIPHER_SUITE, suite);
        } else {
            s.unavailable(CIPHER_SUITE, "no server Initial packet with a ServerHello was captured whole");
        }
    }

    /** The most frequent reason packet numbers were not recovered, with its count. */
    private static String mainFailure(Map<String, Long> failures) {
        return failures.entrySet().stream().max(Map.Entry.comparingByValue())
                .map(e -> e.getKey() + " (" + e.getValue() + " packets)")
                .orElse("no reason recorded");
    }

    private void gapsAndTrains() {
        NanosDistribution gaps = pass.distributions.gaps();
        TrainLengths trains = pass.distributions.trains();
        s.put(IPG_COUNT, gaps.count());
        s.put(IPG_OUT_OF_ORDER, pass.meter.outOfOrder());
        s.put(TRAINS, trains.trains());
        String noGaps = pass.serverPackets == 0 ? noServerPackets() : "only one server packet, so no gap";
        s.putNumber(IPG_MEAN_US, gaps.meanNs() / 1000, noGaps);
        s.putNumber(IPG_P50_US, gaps.quantileNs(0.5) / 1000, noGaps);
        s.putNumber(IPG_P90_US, gaps.quantileNs(0.9) / 1000, noGaps);
        s.putNumber(IPG_P99_US, gaps.quantileNs(0.99) / 1000, noGaps);
        s.putNumber(IPG_LT_THRESHOLD_SHARE, gaps.count() == 0 ? Double.NaN : (double) pass.meter.gapsBelowThreshold() / gaps.count(), noGaps);
        String noTrains = noServerPackets();
        s.putNumber(PTL1_SHARE, trains.shareAtMost(1), noTrains);
        s.putNumber(PTL_LE2_SHARE, trains.shareAtMost(2), noTrains);
        s.putNumber(PTL_LE5_SHARE, trains.shareAtMost(5), noTrains);
        s.putNumber(PTL_LE10_SHARE, trains.shareAtMost(10), noTrains);
        s.putNumber(PTL_PER_PACKET_MEAN, trains.perPacketMean(), noTrains);
        if (trains.packets() > 0) {
            s.put(PTL_PER_PACKET_P50, trains.perPacketQuantile(0.5));
            s.put(PTL_MAX, trains.longest());
        } else {
            s.unavailable(PTL_PER_PACKET_P50, noTrains);
            s.unavailable(PTL_MAX, noTrains);
        }
    }

    private void goodput(ClientLog log) {
        Long bytes = null;
        if (log != null) {
            bytes = log.totalBytes();
            s.put(TRANSFER_BYTES_SOURCE, "client_log");
        } else if (options.transferBytes() != null) {
            bytes = options.transferBytes();
            s.put(TRANSFER_BYTES_SOURCE, "option");
        } else {
            s.unavailable(TRANSFER_BYTES_SOURCE, "no client log (--client-log) and no --bytes given");
        }
        if (bytes != null) {
            s.put(TRANSFER_BYTES, bytes);
        } else {
            s.unavailable(TRANSFER_BYTES, "no client log (--client-log) and no --bytes given");
        }
        long dataNs = pass.firstDataNs == Long.MIN_VALUE ? 0 : pass.lastDataNs - pass.firstDataNs;
        String dataUnit = pass.server != null && !pass.server.isQuic() ? "data segment" : "1-RTT packet";
        if (dataNs > 0) {
            s.put(SERVER_DATA_DURATION_S, dataNs / 1e9);
        } else {
            s.unavailable(SERVER_DATA_DURATION_S, "fewer than two server " + dataUnit + "s at different times");
        }
        if (bytes == null) {
            s.unavailable(GOODPUT_WIRE_MBPS, "the transferred size is unknown: give --client-log or --bytes");
        } else if (dataNs <= 0) {
            s.unavailable(GOODPUT_WIRE_MBPS, s.reason(SERVER_DATA_DURATION_S));
        } else {
            s.put(GOODPUT_WIRE_MBPS, 8.0 * bytes / dataNs * 1000);
        }
        if (log == null) {
            s.unavailable(GOODPUT_APP_MBPS, "no client log given (--client-log)");
            s.unavailable(GOODPUT_WALL_MBPS, "no client log given (--client-log)");
        } else {
            long span = log.transferSpanNs();
            if (span > 0) {
                s.put(GOODPUT_APP_MBPS, 8.0 * log.totalBytes() / span * 1000);
            } else {
                s.unavailable(GOODPUT_APP_MBPS, "the client log has no transfer with a positive duration");
            }
            if (log.wallTimeNs() > 0) {
                s.put(GOODPUT_WALL_MBPS, 8.0 * log.totalBytes() / log.wallTimeNs() * 1000);
            } else {
                s.unavailable(GOODPUT_WALL_MBPS, "the client log's wall_time_ns is 0");
            }
        }
        long spanNs = pass.serverPackets < 2 ? 0 : pass.lastServerNs - pass.firstServerNs;
        if (spanNs > 0) {
            s.put(THROUGHPUT_WIRE_MBPS, 8.0 * pass.serverBytes / spanNs * 1000);
        } else {
            s.unavailable(THROUGHPUT_WIRE_MBPS, "fewer than two server packets at different times");
        }
    }

    /** The window of {@link SummaryField#GOODPUT_5S_MBPS}. */
    static final long GOODPUT_WINDOW_NS = 5_000_000_000L;

    private void drops() throws IOException {
        StartupEnd end = mainTrace == null ? null : mainTrace.startupEnd();
        long split = end == null ? Long.MIN_VALUE : mainTrace.epochNs(end.timeMs());
        String noSplit = mainTrace == null ? noTraceReason
                : end == null ? "the server's qlog logs no congestion state and no ssthresh"
                : split == 0 ? "the server's qlog has no reference_time, so its times cannot be matched with the event log's"
                : null;
        if (options.events() == null) {
            String why = "no emulator event log given (--events)";
            for (SummaryField f : List.of(DROPS, LOSS_EPISODES, DROPS_FIRST_EPISODE, DROPS_LARGEST_EPISODE, DROPS_SLOW_START,
                    DROPS_AFTER_SLOW_START, GOODPUT_5S_MBPS)) {
                s.unavailable(f, why);
            }
            return;
        }
        long at = noSplit == null ? split : Long.MIN_VALUE;
        EmulatorLog.Counts c = pass.eventsAhead == null ? null : pass.eventsAhead.counts(options.events(), at, GOODPUT_WINDOW_NS);
        if (c == null) {
            c = EmulatorLog.read(options.events(), at, GOODPUT_WINDOW_NS);
        }
        s.put(DROPS, c.drops());
        s.put(LOSS_EPISODES, c.episodes());
        s.put(DROPS_FIRST_EPISODE, c.firstEpisode());
        s.put(DROPS_LARGEST_EPISODE, c.largestEpisode());
        if (noSplit == null) {
            s.put(DROPS_SLOW_START, c.dropsBeforeSplit());
            s.put(DROPS_AFTER_SLOW_START, c.drops() - c.dropsBeforeSplit());
        } else if (end == null && mainTrace != null && neverLeftSlowStart()) {
            s.put(DROPS_SLOW_START, c.drops());
            s.put(DROPS_AFTER_SLOW_START, 0L);
        } else {
            s.unavailable(DROPS_SLOW_START, noSplit);
            s.unavailable(DROPS_AFTER_SLOW_START, noSplit);
        }
        Long bytes = s.has(TRANSFER_BYTES) ? ((Number) s.get(TRANSFER_BYTES)).longValue() : null;
        if (bytes == null) {
            s.unavailable(GOODPUT_5S_MBPS, "the transferred size is unknown: give --client-log or --bytes");
        } else if (c.spanNs() < GOODPUT_WINDOW_NS) {
            s.unavailable(GOODPUT_5S_MBPS, "the emulator delivered the server's packets within "
                    + String.format(java.util.Locale.ROOT, "%.2f", c.spanNs() / 1e9) + " s, less than 5 s");
        } else {
            s.put(GOODPUT_5S_MBPS, 8.0 * bytes * c.windowBytes() / c.deliveredBytes() / (GOODPUT_WINDOW_NS / 1e3));
        }
        if (c.note() != null) {
            notes.add(c.note());
        }
    }

    /** True when the main trace reports congestion state and never left slow start: every drop is a slow-start drop. */
    private boolean neverLeftSlowStart() {
        return mainTrace.timeline().size() > 0 && mainTrace.stateUpdates() > 0;
    }

    /** Exit time, state, window and overshoot of the initial slow start, from the main server trace. */
    private void slowStart() {
        Long capacity = options.pathCapacityBytes();
        if (capacity != null) {
            s.put(PATH_CAPACITY_BYTES, capacity);
        } else {
            s.unavailable(PATH_CAPACITY_BYTES, "the path's BDP and buffer were not given (--path-capacity)");
        }
        StartupEnd end = mainTrace == null ? null : mainTrace.startupEnd();
        String why = mainTrace == null ? noTraceReason
                : neverLeftSlowStart() ? "the server never left slow start (its qlog shows no later congestion state)"
                : "the server's qlog logs no congestion state and no ssthresh";
        if (end == null) {
            for (SummaryField f : List.of(SLOW_START_EXIT_S, SLOW_START_EXIT_STATE, SLOW_START_EXIT_CWND_BYTES,
                    SLOW_START_OVERSHOOT)) {
                s.unavailable(f, why);
            }
            return;
        }
        s.put(SLOW_START_EXIT_S, end.sinceStartS());
        s.put(SLOW_START_EXIT_STATE, end.state());
        if (end.maxCwndBytes() < 0) {
            s.unavailable(SLOW_START_EXIT_CWND_BYTES, "the server's qlog reports no congestion_window before slow start ended");
            s.unavailable(SLOW_START_OVERSHOOT, s.reason(SLOW_START_EXIT_CWND_BYTES));
            return;
        }
        s.put(SLOW_START_EXIT_CWND_BYTES, end.maxCwndBytes());
        if (capacity == null) {
            s.unavailable(SLOW_START_OVERSHOOT, s.reason(PATH_CAPACITY_BYTES));
        } else {
            s.put(SLOW_START_OVERSHOOT, (double) end.maxCwndBytes() / capacity);
        }
    }

    /** Precision, retransmissions (QUIC) and congestion state from the matched server qlog traces. */
    private CongestionTimeline qlog() {
        boolean quic = pass.server != null && pass.server.isQuic();
        List<QlogTrace> used = pass.qlogs.used();
        s.put(QLOG_FILES, used.size());
        if (!quic) {
            if (pass.server != null) {
                long retx = pass.tcpFlows.values().stream().mapToLong(f -> f.retransmissions()).sum();
                s.put(RETRANSMISSIONS, retx);
                s.put(RETRANSMISSIONS_SOURCE, "capture");
            } else {
                s.unavailable(RETRANSMISSIONS, noServerPackets());
                s.unavailable(RETRANSMISSIONS_SOURCE, noServerPackets());
            }
            String why = pass.server == null ? noServerPackets()
                    : "pacing precision needs QUIC packet numbers matched to the sender's qlog; the flow is TCP";
            precisionUnavailable(why);
            noTraceReason = pass.server == null ? why : "congestion state comes from a QUIC qlog; the flow is TCP";
            congestionUnavailable(noTraceReason);
            return null;
        }
        String noQlog = options.qlog() == null ? "no qlog given (--qlog)"
                : pass.qlogs.serverTraces() == 0 ? (pass.qlogs.clientTraces() > 0
                        ? "the qlog traces are the client's; intended send times and congestion state come from the server's"
                        : "no qlog trace found in " + options.qlog())
                : pass.dissector.server1RttRecovered() == 0 ? "no server packet number was recovered, so no packet matches the qlog"
                : "no server qlog trace matches the capture's connections";
        if (used.isEmpty()) {
            noTraceReason = noQlog;
            s.unavailable(RETRANSMISSIONS, noQlog);
            s.unavailable(RETRANSMISSIONS_SOURCE, noQlog);
            s.unavailable(QLOG_PACKETS_SENT, noQlog);
            precisionUnavailable(noQlog);
            congestionUnavailable(noQlog);
            return null;
        }
        s.put(RETRANSMISSIONS, used.stream().mapToLong(QlogTrace::packetsLost).sum());
        s.put(RETRANSMISSIONS_SOURCE, "qlog");
        s.put(QLOG_PACKETS_SENT, used.stream().mapToLong(t -> t.sent().count()).sum());
        precision(used);
        QlogTrace main = used.stream().max((a, b) -> Integer.compare(a.timeline().size(), b.timeline().size())).orElseThrow();
        mainTrace = main;
        congestion(main.timeline());
        return main.timeline();
    }

    private void precision(List<QlogTrace> used) {
        var p = pass.precision;
        long oneRtt = pass.dissector.server1RttPackets();
        if (p.matched() == 0) {
            String why = pass.inQlog == 0 ? "no server 1-RTT packet matched a qlog packet_sent event by packet number"
                    : used.stream().allMatch(t -> t.sent().withSendAt() == 0)
                    ? "the server's qlog packet_sent events carry no send_at_time (the intended send time) and their times are "
                    + "whole milliseconds, too coarse to stand for send times; ngtcp2, for one, logs so"
                    : "the matched qlog packet_sent events carry no send_at_time";
            precisionUnavailable(why);
        } else {
            s.put(PRECISION_US, p.precisionNs() / 1000);
            s.put(PRECISION_MATCHED, p.matched());
            s.put(PRECISION_MATCHED_SHARE, oneRtt == 0 ? 0.0 : (double) p.matched() / oneRtt);
            s.put(SEND_DELAY_MEAN_US, p.meanDelayNs() / 1000);
            s.put(SEND_DELAY_P50_US, p.delays().quantile(0.5) / 1000);
            s.put(SEND_DELAY_P99_US, p.delays().quantile(0.99) / 1000);
            if (pass.matchedOnEventTime > 0) {
                notes.add("the server's qlog logs no intended send time (send_at_time), so precision and send delays are "
                        + "measured against its packet_sent times (when the stack sent each packet) for " + pass.matchedOnEventTime
                        + " of " + p.matched() + " packets: they show the send path's lateness, not a pacer's");
            }
            if (used.stream().anyMatch(t -> Double.isNaN(t.referenceTimeMs()))) {
                notes.add("a qlog trace has no reference_time, so send_delay values include an unknown clock offset "
                        + "(precision_us, a standard deviation, is unaffected)");
            }
        }
        clockCheck();
        if (p.targetGaps().count() > 0) {
            s.put(TARGET_GAP_P50_US, p.targetGaps().quantileNs(0.5) / 1000);
            s.put(GAP_OVER_TARGET_P50, p.gapRatioMedian());
        } else {
            String why = p.matched() == 0 && pass.inQlog == 0 ? "no server 1-RTT packet matched a qlog packet_sent event"
                    : "the server's qlog reports no pacing_rate in recovery metrics_updated events";
            s.unavailable(TARGET_GAP_P50_US, why);
            s.unavailable(GAP_OVER_TARGET_P50, why);
        }
    }

    private void precisionUnavailable(String why) {
        for (SummaryField f : List.of(PRECISION_US, PRECISION_MATCHED, PRECISION_MATCHED_SHARE, SEND_DELAY_MEAN_US,
                SEND_DELAY_P50_US, SEND_DELAY_P99_US, TARGET_GAP_P50_US, GAP_OVER_TARGET_P50, CLOCK_OFFSET_US,
                CLOCK_OFFSET_BOUND_US)) {
            s.unavailable(f, why);
        }
    }

    /** The clock check ({@link org.pacelab.analysis.metrics.ClockCheck}): its fields, and a note when the clocks disagree. */
    private void clockCheck() {
        var c = pass.clock;
        if (!c.measured()) {
            String why = c.downSamples() == 0
                    ? "no server 1-RTT packet matched a qlog packet_sent event with a send_at_time and a reference_time"
                    : "no client 1-RTT packet matched a packet_received event of the server's qlog by packet number";
            s.unavailable(CLOCK_OFFSET_US, why);
            s.unavailable(CLOCK_OFFSET_BOUND_US, why);
            return;
        }
        s.put(CLOCK_OFFSET_US, c.offsetNs() / 1000);
        s.put(CLOCK_OFFSET_BOUND_US, c.boundNs() / 1000);
        if (c.inconsistent()) {
            notes.add(String.format(Locale.ROOT, "WARNING: the server's qlog clock and the capture's disagree: %s (smallest "
                    + "delay up %.1f us, down %.1f us over %d and %d packets), so the qlog's clock is %.1f +- %.1f us "
                    + "ahead of the capture's; send_delay_mean/p50/p99_us and the table's send_delay_ns include that "
                    + "offset, precision_us (a standard deviation) does not. Both map CLOCK_MONOTONIC to the wall clock "
                    + "once (the emulator at its start, the server when the connection starts): a step of the wall "
                    + "clock between the two moments does this",
                    c.minDownNs() < 0 ? "a server packet reached the capture before its intended send time"
                            : "a client packet reached the server before the capture saw it",
                    c.minUpNs() / 1000.0, c.minDownNs() / 1000.0, c.upSamples(), c.downSamples(),
                    c.offsetNs() / 1000, c.boundNs() / 1000));
        }
    }

    private void congestion(CongestionTimeline t) {
        var cwnd = stats(t, CongestionTimeline.Column.CONGESTION_WINDOW);
        var rate = stats(t, CongestionTimeline.Column.PACING_RATE_BPS);
        var srtt = stats(t, CongestionTimeline.Column.SMOOTHED_RTT_MS);
        var minRtt = stats(t, CongestionTimeline.Column.MIN_RTT_MS);
        if (minRtt.count() == 0) {
            minRtt = stats(t, CongestionTimeline.Column.LATEST_RTT_MS);
        }
        String none = "the server's qlog reports no ";
        if (cwnd.count() > 0) {
            s.put(CWND_MAX_BYTES, (long) cwnd.max());
            s.put(CWND_MEAN_BYTES, cwnd.mean());
        } else {
            s.unavailable(CWND_MAX_BYTES, none + "congestion_window");
            s.unavailable(CWND_MEAN_BYTES, none + "congestion_window");
        }
        s.putNumber(PACING_RATE_MEAN_MBPS, rate.mean() / 1e6, none + "pacing_rate");
        s.putNumber(SRTT_MEAN_MS, srtt.mean(), none + "smoothed_rtt");
        s.putNumber(MIN_RTT_MS, minRtt.min(), none + "min_rtt or latest_rtt");
    }

    private static org.pacelab.analysis.metrics.RunningStats stats(CongestionTimeline t, CongestionTimeline.Column c) {
        var r = new org.pacelab.analysis.metrics.RunningStats();
        for (int i = 0; i < t.size(); i++) {
            double v = t.value(c, i);
            if (!Double.isNaN(v)) {
                r.add(v);
            }
        }
        return r;
    }

    private void congestionUnavailable(String why) {
        for (SummaryField f : List.of(CWND_MAX_BYTES, CWND_MEAN_BYTES, PACING_RATE_MEAN_MBPS, SRTT_MEAN_MS, MIN_RTT_MS)) {
            s.unavailable(f, why);
        }
        if (!s.has(QLOG_PACKETS_SENT) && s.reason(QLOG_PACKETS_SENT) == null) {
            s.unavailable(QLOG_PACKETS_SENT, why);
        }
    }
}
