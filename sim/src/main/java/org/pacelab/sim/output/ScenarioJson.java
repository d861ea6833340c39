package org.pacelab.sim.output;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.pacelab.analysis.io.AtomicFiles;
import org.pacelab.sim.SimResult;
import org.pacelab.sim.SimScenario;
import org.pacelab.sim.host.HostConfig;
import org.pacelab.sim.host.QdiscConfig;

/**
 * {@code sim.json}: what was simulated (the resolved scenario with its seed) and how the run ended, in virtual
 * time only, so the same scenario and seed give the same file.
 */
public final class ScenarioJson {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ScenarioJson() {}

    public static void write(Path file, SimScenario s, long start, long end, long clientEnd, boolean completed,
                             String outcome, Map<String, Long> counters, List<SimResult.FlowResult> flows) throws IOException {
        ObjectNode o = JSON.createObjectNode();
        o.put("seed", s.seed());
        if (s.dc() == null) {
            o.put("preset", s.link().preset());
            o.put("down", s.link().down().format());
            o.put("up", s.link().up().format());
        } else {
            o.put("dc", s.dc().format());
            o.put("path_a", s.dc().a().format());
            o.put("path_b", s.dc().b().format());
            o.put("up", s.dc().up().format());
        }
        o.put("flow_modes", String.join(",", s.flows().stream().map(f -> f.label()).toList()));
        o.put("servers", s.serverPerFlow() ? "per-flow" : "shared");
        if (!s.flowStarts().isEmpty()) {
            // when each pair's client started, ns after the run's start (absent: all at once)
            var starts = o.putArray("flow_starts_ns");
            s.flowStarts().forEach(starts::add);
        }
        o.put("duration_ns", s.duration());
        o.put("size_bytes", s.transferBytes());
        o.put("streams", s.streams());
        o.put("alpn", s.alpn());
        ObjectNode cc = o.putObject("congestion");
        s.congestion().toOptions().forEach(cc::put);
        o.put("max_udp_payload", s.maxUdpPayload());
        o.put("idle_timeout_ns", s.idleTimeout());
        o.put("key_update_packets", s.keyUpdateInterval());
        o.put("client_ack_threshold", s.ackThreshold());
        host(o.putObject("server_host"), s.server());
        host(o.putObject("client_host"), s.client());
        o.put("server", s.serverAddress().getAddress().getHostAddress() + ":" + s.serverAddress().getPort());
        o.put("client", s.clientAddress().getAddress().getHostAddress() + ":" + s.clientAddress().getPort());
        o.put("virtual_epoch_ns", VirtualEpoch.EPOCH_NANOS);
        o.put("virtual_start_ns", start);
        o.put("virtual_end_ns", end);
        o.put("client_end_ns", clientEnd);
        o.put("completed", completed);
        o.put("outcome", outcome);
        ObjectNode c = o.putObject("counters");
        counters.forEach(c::put);
        var array = o.putArray("flows");
        for (SimResult.FlowResult f : flows) {
            ObjectNode fo = array.addObject();
            fo.put("flow", f.flow());
            fo.put("mode", f.mode().label());
            fo.put("client", f.client().getAddress().getHostAddress() + ":" + f.client().getPort());
            fo.put("body_bytes", f.bodyBytes());
            fo.put("goodput_mbps", f.goodputMbps());
            fo.put("completed", f.completed());
            fo.put("outcome", f.outcome());
            fo.put("handshake_ns", f.handshakeNanos());
            fo.put("end_ns", f.endNanos());
        }
        AtomicFiles.writeString(file, JSON.writeValueAsString(o) + "\n");
    }

    private static void host(ObjectNode o, HostConfig h) {
        o.put("send", h.send());
        o.put("gso", h.sendPath().gsoSegments());
        o.put("sendmmsg", h.sendPath().sendmmsgBatch());
        o.put("txtime", h.sendPath().txtime());
        o.put("paced_gso", h.sendPath().pacedGso());
        o.put("pacing_lookahead_ns", h.sendPath().pacingLookahead());
        o.put("recv_batch", h.sendPath().recvBatch());
        o.put("udp_buffer_bytes", h.udpBuffer());
        ObjectNode q = o.putObject("qdisc");
        q.put("kind", h.qdisc().name());
        switch (h.qdisc()) {
            case QdiscConfig.Pfifo p -> { }
            case QdiscConfig.Fq fq -> {
                q.put("quantum_bytes", fq.quantumBytes());
                q.put("initial_quantum_bytes", fq.initialQuantumBytes());
                q.put("horizon_ns", fq.horizonNanos());
                q.put("flow_limit", fq.flowLimit());
                q.put("timer_slack_ns", fq.timerSlackNanos());
            }
            case QdiscConfig.Etf etf -> q.put("delta_ns", etf.deltaNanos());
        }
        o.put("timing", h.timing().source());
    }
}
