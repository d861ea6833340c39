package org.pacelab.quic.qlog;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import org.pacelab.quic.frame.AckFrame;
import org.pacelab.quic.frame.ConnectionCloseFrame;
import org.pacelab.quic.frame.CryptoFrame;
import org.pacelab.quic.frame.Frame;
import org.pacelab.quic.frame.FrameType;
import org.pacelab.quic.frame.MaxDataFrame;
import org.pacelab.quic.frame.MaxStreamDataFrame;
import org.pacelab.quic.frame.PaddingFrame;
import org.pacelab.quic.frame.StreamFrame;
import org.pacelab.quic.packet.PacketType;
import org.pacelab.quic.stream.StreamDataSent;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;

/**
 * Writes qlog as JSON-SEQ (RFC 7464 records: RS, JSON text, LF) with the legacy 0.3 header fields and
 * {@code transport:}/{@code recovery:} event names, so qvis and pacelab's analyzer read it. Times are
 * milliseconds relative to {@code reference_time}, with nanosecond digits kept (3 decimals = µs resolution
 * is the minimum asked; we keep 6). Records are encoded by Jackson's UTF-8 generator straight into its byte
 * buffer; the RS and LF framing goes through the same buffer (the generator's root-value separator, a space,
 * follows each RS after the first record).
 */
public final class QlogJsonSeqWriter implements QlogSink {
    private static final char RS = 0x1e;
    private static final char LF = '\n';
    private static final HexFormat HEX = HexFormat.of();

    private final OutputStream out;
    private final JsonGenerator json;
    private final long baseNanos;
    private final boolean logFrames;
    private final boolean flushEachRecord;
    private final StringBuilder millis = new StringBuilder(24);

    /**
     * @param out             where records go as UTF-8 (the caller opened it; {@link #close()} closes it)
     * @param vantagePoint    {@code client} or {@code server}
     * @param odcid           the original destination connection ID (group_id)
     * @param referenceTimeMs wall-clock time of {@code baseNanos}, ms since the epoch
     * @param baseNanos       the connection clock's value at {@code referenceTimeMs}
     * @param logFrames       include frame lists in packet events
     * @param flushEachRecord  flush {@code out} after every record (a live process that may be killed keeps every
     *                        record written); otherwise bytes reach {@code out} when the generator's buffer fills
     *                        and on {@link #close()}
     */
    public QlogJsonSeqWriter(OutputStream out, String title, String vantagePoint, byte[] odcid, double referenceTimeMs,
                             long baseNanos, boolean logFrames, boolean flushEachRecord) {
        this.out = out;
        this.baseNanos = baseNanos;
        this.logFrames = logFrames;
        this.flushEachRecord = flushEachRecord;
        try {
            this.json = new JsonFactory().createGenerator(out, JsonEncoding.UTF8);
            json.configure(JsonGenerator.Feature.AUTO_CLOSE_TARGET, false);
            json.writeRaw(RS);
            json.writeStartObject();
            json.writeStringField("qlog_version", "0.3");
            json.writeStringField("qlog_format", "JSON-SEQ");
            json.writeStringField("title", title);
            json.writeObjectFieldStart("trace");
            json.writeObjectFieldStart("vantage_point");
            json.writeStringField("type", vantagePoint);
            json.writeStringField("name", "pacelab");
            json.writeEndObject();
            json.writeObjectFieldStart("common_fields");
            json.writeStringField("ODCID", HEX.formatHex(odcid));
            json.writeStringField("group_id", HEX.formatHex(odcid));
            json.writeStringField("protocol_type", "QUIC_HTTP3");
            json.writeNumberField("reference_time", referenceTimeMs);
            json.writeStringField("time_format", "relative");
            json.writeEndObject();
            json.writeEndObject();
            json.writeEndObject();
            endRecord();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public boolean enabled() { return true; }

    private void begin(long now, String name) throws IOException {
        json.writeRaw(RS);
        json.writeStartObject();
        json.writeFieldName("time");
        writeMillis(now);
        json.writeStringField("name", name);
        json.writeObjectFieldStart("data");
    }

    private void end() throws IOException {
        json.writeEndObject();
        json.writeEndObject();
        endRecord();
    }

    private void endRecord() throws IOException {
        json.writeRaw(LF);
        if (flushEachRecord) {
            json.flush();
        }
    }

    private void writeMillis(long t) throws IOException {
        // ms with 6 decimals, written exactly from integer ns (no binary-float rounding)
        long rel = t - baseNanos;
        String sign = rel < 0 ? "-" : "";
        long abs = Math.abs(rel);
        long frac = abs % 1_000_000;
        StringBuilder b = millis;
        b.setLength(0);
        b.append(sign).append(abs / 1_000_000).append('.');
        for (long p = 100_000; p > frac && p > 1; p /= 10) {
            b.append('0');
        }
        json.writeNumber(b.append(frac).toString());
    }

    private static String packetType(PacketType t) {
        return switch (t) {
            case INITIAL -> "initial";
            case HANDSHAKE -> "handshake";
            case ZERO_RTT -> "0RTT";
            case ONE_RTT -> "1RTT";
            case RETRY -> "retry";
            case VERSION_NEGOTIATION -> "version_negotiation";
        };
    }

    @Override
    public void connectionStarted(long now, String localAddress, String remoteAddress, byte[] scid, byte[] dcid) {
        run(() -> {
            begin(now, "transport:connection_started");
            json.writeStringField("src_ip", localAddress);
            json.writeStringField("dst_ip", remoteAddress);
            json.writeStringField("src_cid", HEX.formatHex(scid));
            json.writeStringField("dst_cid", HEX.formatHex(dcid));
            end();
        });
    }

    @Override
    public void parametersSet(long now, boolean local, Map<String, Object> parameters) {
        run(() -> {
            begin(now, "transport:parameters_set");
            json.writeStringField("owner", local ? "local" : "remote");
            for (Map.Entry<String, Object> e : parameters.entrySet()) {
                Object v = e.getValue();
                if (v instanceof Number n) {
                    json.writeNumberField(e.getKey(), n.longValue());
                } else if (v instanceof Boolean b) {
                    json.writeBooleanField(e.getKey(), b);
                } else if (v instanceof byte[] bytes) {
                    json.writeStringField(e.getKey(), HEX.formatHex(bytes));
                } else if (v != null) {
                    json.writeStringField(e.getKey(), v.toString());
                }
            }
            end();
        });
    }

    @Override
    public void packetSent(long now, PacketType type, long packetNumber, int length, long intendedSendTime,
                           List<Frame> frames) {
        run(() -> {
            begin(now, "transport:packet_sent");
            header(type, packetNumber);
            json.writeObjectFieldStart("raw");
            json.writeNumberField("length", length);
            json.writeEndObject();
            json.writeFieldName("send_at_time");
            writeMillis(intendedSendTime);
            frames(frames);
            end();
        });
    }

    @Override
    public void packetReceived(long now, PacketType type, long packetNumber, int length, List<Frame> frames) {
        run(() -> {
            begin(now, "transport:packet_received");
            header(type, packetNumber);
            json.writeObjectFieldStart("raw");
            json.writeNumberField("length", length);
            json.writeEndObject();
            frames(frames);
            end();
        });
    }

    @Override
    public void packetDropped(long now, PacketType type, int length, String trigger) {
        run(() -> {
            begin(now, "transport:packet_dropped");
            if (type != null) {
                json.writeObjectFieldStart("header");
                json.writeStringField("packet_type", packetType(type));
                json.writeEndObject();
            }
            json.writeObjectFieldStart("raw");
            json.writeNumberField("length", length);
            json.writeEndObject();
            json.writeStringField("trigger", trigger);
            end();
        });
    }

    @Override
    public void packetLost(long now, PacketType type, long packetNumber, String trigger) {
        run(() -> {
            begin(now, "recovery:packet_lost");
            header(type, packetNumber);
            json.writeStringField("trigger", trigger);
            end();
        });
    }

    @Override
    public void metricsUpdated(long now, long minRtt, long smoothedRtt, long latestRtt, long rttVariance,
                               long congestionWindow, long bytesInFlight, long ssthresh, long pacingRateBitsPerSecond) {
        run(() -> {
            begin(now, "recovery:metrics_updated");
            if (minRtt != Long.MAX_VALUE) {
                json.writeFieldName("min_rtt");
                json.writeNumber(minRtt / 1e6);
            }
            json.writeFieldName("smoothed_rtt");
            json.writeNumber(smoothedRtt / 1e6);
            json.writeFieldName("latest_rtt");
            json.writeNumber(latestRtt / 1e6);
            json.writeFieldName("rtt_variance");
            json.writeNumber(rttVariance / 1e6);
            json.writeNumberField("congestion_window", congestionWindow);
            json.writeNumberField("bytes_in_flight", bytesInFlight);
            if (ssthresh != Long.MAX_VALUE) {
                json.writeNumberField("ssthresh", ssthresh);
            }
            if (pacingRateBitsPerSecond > 0) {
                json.writeNumberField("pacing_rate", pacingRateBitsPerSecond);
            }
            end();
        });
    }

    @Override
    public void congestionStateUpdated(long now, String oldState, String newState) {
        run(() -> {
            begin(now, "recovery:congestion_state_updated");
            json.writeStringField("old", oldState);
            json.writeStringField("new", newState);
            end();
        });
    }

    @Override
    public void keyUpdated(long now, String keyType, long generation, String trigger) {
        run(() -> {
            begin(now, "security:key_updated");
            json.writeStringField("key_type", keyType);
            json.writeNumberField("generation", generation);
            json.writeStringField("trigger", trigger);
            end();
        });
    }

    @Override
    public void connectionClosed(long now, boolean local, long errorCode, boolean application, String reason) {
        run(() -> {
            begin(now, "connectivity:connection_closed");
            json.writeStringField("owner", local ? "local" : "remote");
            json.writeNumberField(application ? "application_code" : "connection_code", errorCode);
            json.writeStringField("reason", reason == null ? "" : reason);
            end();
        });
    }

    private void header(PacketType type, long pn) throws IOException {
        json.writeObjectFieldStart("header");
        json.writeStringField("packet_type", packetType(type));
        json.writeNumberField("packet_number", pn);
        json.writeEndObject();
    }

    private void frames(List<Frame> frames) throws IOException {
        if (!logFrames || frames == null) {
            return;
        }
        json.writeArrayFieldStart("frames");
        for (Frame f : frames) {
            json.writeStartObject();
            switch (f) {
                case StreamFrame s -> {
                    json.writeStringField("frame_type", "stream");
                    json.writeNumberField("stream_id", s.streamId());
                    json.writeNumberField("offset", s.offset());
                    json.writeNumberField("length", s.data().length);
                    json.writeBooleanField("fin", s.fin());
                }
                case StreamDataSent s -> {
                    json.writeStringField("frame_type", "stream");
                    json.writeNumberField("stream_id", s.streamId());
                    json.writeNumberField("offset", s.offset());
                    json.writeNumberField("length", s.length());
                    json.writeBooleanField("fin", s.fin());
                }
                case AckFrame a -> {
                    json.writeStringField("frame_type", "ack");
                    json.writeArrayFieldStart("acked_ranges");
                    for (int i = a.ranges().length - 2; i >= 0; i -= 2) {
                        json.writeStartArray();
                        json.writeNumber(a.ranges()[i + 1]);
                        json.writeNumber(a.ranges()[i]);
                        json.writeEndArray();
                    }
                    json.writeEndArray();
                }
                case CryptoFrame c -> {
                    json.writeStringField("frame_type", "crypto");
                    json.writeNumberField("offset", c.offset());
                    json.writeNumberField("length", c.data().length);
                }
                case MaxDataFrame m -> {
                    json.writeStringField("frame_type", "max_data");
                    json.writeNumberField("maximum", m.max());
                }
                case MaxStreamDataFrame m -> {
                    json.writeStringField("frame_type", "max_stream_data");
                    json.writeNumberField("stream_id", m.streamId());
                    json.writeNumberField("maximum", m.max());
                }
                case PaddingFrame p -> {
                    json.writeStringField("frame_type", "padding");
                    json.writeNumberField("length", p.length());
                }
                case ConnectionCloseFrame c -> {
                    json.writeStringField("frame_type", "connection_close");
                    json.writeStringField("error_space", c.application() ? "application" : "transport");
                    json.writeNumberField("error_code", c.errorCode());
                    json.writeStringField("reason", c.reason());
                }
                default -> json.writeStringField("frame_type", FrameType.name(f.type()));
            }
            json.writeEndObject();
        }
        json.writeEndArray();
    }

    @Override
    public void close() {
        run(() -> {
            json.close();
            out.close();
        });
    }

    private interface IoAction {
        void run() throws IOException;
    }

    private static void run(IoAction a) {
        try {
            a.run();
        } catch (IOException e) {
            throw new UncheckedIOException("qlog write failed", e);
        }
    }
}
