package org.pacelab.analysis.summary;

/**
 * Every field of the per-run JSON summary, in output order. This enum is the schema: the JSON writer and
 * reader, the aggregation over repetitions, and docs/analysis-summary-schema.md all follow it.
 * A {@linkplain #metric() metric} that cannot be computed is written as {@code null} with a
 * {@code <name>_reason} string beside it.
 */
public enum SummaryField {
    SUMMARY_VERSION("summary_version", Kind.INTEGER, false, "", "schema version of this summary (1)"),
    CAPTURE("capture", Kind.STRING, false, "", "path of the analysed capture file"),
    CAPTURE_FORMAT("capture_format", Kind.STRING, false, "", "pcap, pcapng or empty"),
    CAPTURE_TRUNCATED("capture_truncated", Kind.BOOLEAN, false, "",
            "true when the capture ended inside a record or was corrupt; metrics cover the frames before that point"),
    CAPTURE_TRUNCATION("capture_truncation", Kind.STRING, false, "", "where and why the capture ends early, or null"),
    LINK_TYPES("link_types", Kind.STRING, false, "", "LINKTYPE_ numbers of the capture's interfaces, comma-separated"),
    FRAMES("frames", Kind.INTEGER, false, "", "frames read from the capture"),
    FRAMES_UNDECODED("frames_undecoded", Kind.INTEGER, false, "",
            "frames that are not IPv4/IPv6 with UDP or TCP, on an unsupported link type, fragments, or cut short"),
    PROTOCOL("protocol", Kind.STRING, true, "", "quic, tcp, or udp when no datagram of the server's UDP flow looked like QUIC"),
    SERVER("server", Kind.STRING, true, "", "server address:port (IPv6 in brackets)"),
    SERVER_DETECTION("server_detection", Kind.STRING, true, "",
            "how the server was found: server_port_option, initial_response, syn_ack or most_bytes_sent"),
    CONNECTIONS("connections", Kind.INTEGER, false, "", "QUIC connections or TCP flows with the server"),
    THRESHOLD_US("threshold_us", Kind.NUMBER, false, "us", "packet-train threshold: a gap below it continues a train"),
    PACKETS("packets", Kind.INTEGER, false, "",
            "server-to-client packets analysed: UDP datagrams for QUIC, TCP segments carrying data for TCP"),
    CLIENT_PACKETS("client_packets", Kind.INTEGER, false, "", "client-to-server datagrams or segments"),
    SERVER_BYTES("server_bytes", Kind.INTEGER, false, "bytes", "UDP or TCP payload bytes of the server's packets"),
    FIRST_PACKET_TIME_NS("first_packet_time_ns", Kind.INTEGER, true, "ns", "capture time of the first server packet, ns since the Unix epoch"),
    LAST_PACKET_TIME_NS("last_packet_time_ns", Kind.INTEGER, true, "ns", "capture time of the last server packet"),
    QUIC_PACKETS("quic_packets", Kind.INTEGER, true, "", "QUIC packets in both directions (coalesced packets counted one by one)"),
    QUIC_PN_RECOVERED("quic_pn_recovered", Kind.INTEGER, true, "", "QUIC packets of both directions whose packet number was recovered"),
    SERVER_1RTT_PACKETS("server_1rtt_packets", Kind.INTEGER, true, "", "server 1-RTT (short header) QUIC packets"),
    PN_RECOVERED("pn_recovered", Kind.INTEGER, true, "", "server 1-RTT packets whose packet number was recovered"),
    CIPHER_SUITE("cipher_suite", Kind.STRING, true, "", "TLS cipher suite of the connection, from the ServerHello"),
    IPG_COUNT("ipg_count", Kind.INTEGER, false, "", "inter-packet gaps between consecutive server packets (packets - 1)"),
    IPG_MEAN_US("ipg_mean_us", Kind.NUMBER, true, "us", "mean inter-packet gap"),
    IPG_P50_US("ipg_p50_us", Kind.NUMBER, true, "us", "median inter-packet gap (within 0.1 %)"),
    IPG_P90_US("ipg_p90_us", Kind.NUMBER, true, "us", "90th percentile of the inter-packet gap (within 0.1 %)"),
    IPG_P99_US("ipg_p99_us", Kind.NUMBER, true, "us", "99th percentile of the inter-packet gap (within 0.1 %)"),
    IPG_LT_THRESHOLD_SHARE("ipg_lt_threshold_share", Kind.NUMBER, true, "", "share of gaps below the threshold"),
    IPG_OUT_OF_ORDER("ipg_out_of_order", Kind.INTEGER, false, "",
            "server packets whose capture time is earlier than the previous one's (counted as gap 0)"),
    TRAINS("trains", Kind.INTEGER, false, "", "packet trains of the server"),
    PTL1_SHARE("ptl1_share", Kind.NUMBER, true, "", "share of server packets in trains of length 1 (sent alone)"),
    PTL_LE2_SHARE("ptl_le2_share", Kind.NUMBER, true, "", "share of server packets in trains of length at most 2"),
    PTL_LE5_SHARE("ptl_le5_share", Kind.NUMBER, true, "", "share of server packets in trains of length at most 5"),
    PTL_LE10_SHARE("ptl_le10_share", Kind.NUMBER, true, "", "share of server packets in trains of length at most 10"),
    PTL_PER_PACKET_MEAN("ptl_per_packet_mean", Kind.NUMBER, true, "", "mean train length seen by a packet (sum n^2 / sum n)"),
    PTL_PER_PACKET_P50("ptl_per_packet_p50", Kind.INTEGER, true, "", "median train length seen by a packet"),
    PTL_MAX("ptl_max", Kind.INTEGER, true, "", "longest train"),
    TRANSFER_BYTES("transfer_bytes", Kind.INTEGER, true, "bytes", "application bytes transferred (client log, or --bytes)"),
    TRANSFER_BYTES_SOURCE("transfer_bytes_source", Kind.STRING, true, "", "client_log or option"),
    SERVER_DATA_DURATION_S("server_data_duration_s", Kind.NUMBER, true, "s",
            "time from the first to the last server 1-RTT packet (TCP: data segment)"),
    GOODPUT_WIRE_MBPS("goodput_wire_mbps", Kind.NUMBER, true, "Mbit/s",
            "8 * transfer_bytes / server_data_duration_s, as the QUIC Interop Runner computes it"),
    GOODPUT_APP_MBPS("goodput_app_mbps", Kind.NUMBER, true, "Mbit/s",
            "8 * bytes / (last byte - request) from the client's log, over all its transfers"),
    GOODPUT_5S_MBPS("goodput_5s_mbps", Kind.NUMBER, true, "Mbit/s",
            "goodput of the first 5 s: transfer_bytes times the share of the downlink bytes the emulator delivered within 5 s of the server's first packet, over 5 s"),
    GOODPUT_WALL_MBPS("goodput_wall_mbps", Kind.NUMBER, true, "Mbit/s",
            "8 * bytes / the client process's wall time, as the QUIC Steps study's numbers are"),
    THROUGHPUT_WIRE_MBPS("throughput_wire_mbps", Kind.NUMBER, true, "Mbit/s",
            "8 * server_bytes / (last - first server packet): UDP/TCP payload rate including protocol overhead"),
    DROPS("drops", Kind.INTEGER, true, "", "packets dropped by the emulated bottleneck (emulator event log)"),
    LOSS_EPISODES("loss_episodes", Kind.INTEGER, true, "",
            "bursts of bottleneck drops: a drop more than 0.5 s after the previous one starts a new episode"),
    DROPS_FIRST_EPISODE("drops_first_episode", Kind.INTEGER, true, "",
            "drops of the first episode (for a bulk transfer: the overshoot that ends slow start)"),
    DROPS_LARGEST_EPISODE("drops_largest_episode", Kind.INTEGER, true, "", "drops of the largest episode"),
    DROPS_SLOW_START("drops_slow_start", Kind.INTEGER, true, "",
            "drops of packets that reached the bottleneck before the sender left its initial slow start (qlog)"),
    DROPS_AFTER_SLOW_START("drops_after_slow_start", Kind.INTEGER, true, "", "drops of packets that reached it later"),
    RETRANSMISSIONS("retransmissions", Kind.INTEGER, true, "",
            "QUIC: packets the server declared lost (qlog recovery:packet_lost); TCP: data segments resending sent bytes"),
    RETRANSMISSIONS_SOURCE("retransmissions_source", Kind.STRING, true, "", "qlog or capture"),
    PRECISION_US("precision_us", Kind.NUMBER, true, "us",
            "pacing precision: population standard deviation of (wire time - intended send time) over matched packets"),
    PRECISION_MATCHED("precision_matched", Kind.INTEGER, true, "",
            "server 1-RTT packets matched by packet number to a qlog packet_sent event with an intended send time"),
    PRECISION_MATCHED_SHARE("precision_matched_share", Kind.NUMBER, true, "", "precision_matched / server_1rtt_packets"),
    SEND_DELAY_MEAN_US("send_delay_mean_us", Kind.NUMBER, true, "us",
            "mean of wire time - intended send time (includes any offset between the two clocks)"),
    SEND_DELAY_P50_US("send_delay_p50_us", Kind.NUMBER, true, "us", "median of wire time - intended send time (1 us bins)"),
    SEND_DELAY_P99_US("send_delay_p99_us", Kind.NUMBER, true, "us", "99th percentile of wire time - intended send time (1 us bins)"),
    CLOCK_OFFSET_US("clock_offset_us", Kind.NUMBER, true, "us",
            "the server qlog's clock less the capture's, from the smallest delay each way: (min up - min down) / 2, "
            + "up = qlog packet_received time - capture time of client 1-RTT packets, down = capture time - send_at_time"),
    CLOCK_OFFSET_BOUND_US("clock_offset_bound_us", Kind.NUMBER, true, "us",
            "half the smallest round trip, (min up + min down) / 2: the offset lies within clock_offset_us +- this; "
            + "negative, or |clock_offset_us| above it, when a packet was seen before it left (the clocks disagree)"),
    TARGET_GAP_P50_US("target_gap_p50_us", Kind.NUMBER, true, "us",
            "median target gap of matched packets: 8 * size / pacing rate in force when the qlog logged the packet"),
    GAP_OVER_TARGET_P50("gap_over_target_p50", Kind.NUMBER, true, "", "median of actual gap / target gap over those packets"),
    QLOG_FILES("qlog_files", Kind.INTEGER, false, "", "qlog traces matched to the server's connections"),
    QLOG_PACKETS_SENT("qlog_packets_sent", Kind.INTEGER, true, "", "1-RTT packet_sent events in those traces"),
    CWND_MAX_BYTES("cwnd_max_bytes", Kind.INTEGER, true, "bytes", "largest congestion window the qlog reported"),
    CWND_MEAN_BYTES("cwnd_mean_bytes", Kind.NUMBER, true, "bytes", "mean congestion window over metrics_updated events"),
    PACING_RATE_MEAN_MBPS("pacing_rate_mean_mbps", Kind.NUMBER, true, "Mbit/s", "mean pacing rate over metrics_updated events"),
    SRTT_MEAN_MS("srtt_mean_ms", Kind.NUMBER, true, "ms", "mean smoothed RTT over metrics_updated events"),
    MIN_RTT_MS("min_rtt_ms", Kind.NUMBER, true, "ms", "smallest min_rtt (or latest_rtt) the qlog reported"),
    SLOW_START_EXIT_S("slow_start_exit_s", Kind.NUMBER, true, "s",
            "time from the server's first qlog event to the end of its initial slow start (BBR: Startup)"),
    SLOW_START_EXIT_STATE("slow_start_exit_state", Kind.STRING, true, "",
            "the state it left slow start for: congestion_avoidance (an exit rule), recovery (a loss), drain (BBR), ssthresh_set"),
    SLOW_START_EXIT_CWND_BYTES("slow_start_exit_cwnd_bytes", Kind.INTEGER, true, "bytes",
            "largest congestion window the qlog reported before slow start ended"),
    PATH_CAPACITY_BYTES("path_capacity_bytes", Kind.INTEGER, true, "bytes",
            "what the emulated path holds without a drop: the downlink's BDP (mean rate for a trace) plus its buffer"),
    SLOW_START_OVERSHOOT("slow_start_overshoot", Kind.NUMBER, true, "",
            "slow_start_exit_cwnd_bytes / path_capacity_bytes: above 1, slow start sent more than the path holds"),
    JFI("jfi", Kind.NUMBER, true, "",
            "multi-flow runs (dual connectivity): Jain's fairness index of the flows' mean throughputs over the window in which every flow was active"),
    JFI_WINDOW_MEAN("jfi_window_mean", Kind.NUMBER, true, "",
            "mean of Jain's index over sliding windows of that window (length in dc-summary.json)"),
    JFI_PATH_A("jfi_path_a", Kind.NUMBER, true, "",
            "Jain's index of what the flows sharing path a sent over it in the window (1: they split it evenly)"),
    JFI_PATH_B("jfi_path_b", Kind.NUMBER, true, "", "likewise for path b"),
    FLOWS("flows", Kind.INTEGER, true, "",
            "client/server pairs of a multi-flow run"),
    FLOW_MBPS("flow_mbps", Kind.STRING, true, "Mbit/s",
            "each flow's mean throughput over the window, in flow order, e.g. 'dc=12.1 a=8.0 b=7.9'"),
    DC_FLOW_MBPS("dc_flow_mbps", Kind.NUMBER, true, "Mbit/s",
            "mean throughput over the window of the first flow split over both paths"),
    TOTAL_MBPS("total_mbps", Kind.NUMBER, true, "Mbit/s",
            "all flows of a multi-flow run together over the window"),
    PATH_A_UTILIZATION("path_a_utilization", Kind.NUMBER, true, "",
            "bytes path a carried over the window / what its rate or trace allowed"),
    PATH_B_UTILIZATION("path_b_utilization", Kind.NUMBER, true, "",
            "likewise for path b"),
    REORDER_HELD("reorder_held", Kind.INTEGER, true, "",
            "packets the client-side reordering receivers of the dual-connected flows stored out of order"),
    REORDER_TIMER_EXPIRIES("reorder_timer_expiries", Kind.INTEGER, true, "",
            "t-Reordering expiries of the dual-connected flows"),
    REORDER_HOLD_P99_MS("reorder_hold_p99_ms", Kind.NUMBER, true, "ms",
            "99th percentile of how long a held packet waited (the dual-connected flows)"),
    REORDER_DUPLICATES("reorder_duplicates", Kind.INTEGER, true, "",
            "copies the dual-connected flows' reordering receivers discarded as already received (duplication)"),
    EMULATOR_LATENESS_P99_US("emulator_lateness_p99_us", Kind.NUMBER, true, "us",
            "99th percentile of how late the real-time emulator delivered packets against its model (its own report)"),
    EMULATOR_LATENESS_MAX_US("emulator_lateness_max_us", Kind.NUMBER, true, "us", "the latest delivery of the emulator"),
    EMULATOR_WARMUP_PACKETS("emulator_warmup_packets", Kind.INTEGER, true, "",
            "packets the emulator ran through a copy of itself before it reported ready (its warm-up line; 0: warm-up off)"),
    HOST_LOAD_START("host_load_start", Kind.NUMBER, true, "",
            "the host's 1-minute load average when the run started (runner; /proc/loadavg)"),
    HOST_LOAD_END("host_load_end", Kind.NUMBER, true, "", "the 1-minute load average when the run ended"),
    NOTES("notes", Kind.STRING, false, "", "sentences about inputs that were partly unusable, or null");

    /** JSON value kinds. */
    public enum Kind { INTEGER, NUMBER, STRING, BOOLEAN }

    private final String jsonName;
    private final Kind kind;
    private final boolean metric;
    private final String unit;
    private final String description;

    SummaryField(String jsonName, Kind kind, boolean metric, String unit, String description) {
        this.jsonName = jsonName;
        this.kind = kind;
        this.metric = metric;
        this.unit = unit;
        this.description = description;
    }

    public String jsonName() {
        return jsonName;
    }

    public Kind kind() {
        return kind;
    }

    /** True when the field may be null with a {@code <name>_reason} beside it. */
    public boolean metric() {
        return metric;
    }

    public String unit() {
        return unit;
    }

    public String description() {
        return description;
    }

    public String reasonName() {
        return jsonName + "_reason";
    }

    /** Numeric fields (aggregated over repetitions). */
    public boolean numeric() {
        return kind == Kind.INTEGER || kind == Kind.NUMBER;
    }

    public static SummaryField byJsonName(String name) {
        for (SummaryField f : values()) {
            if (f.jsonName.equals(name)) {
                return f;
            }
        }
        return null;
    }
}
