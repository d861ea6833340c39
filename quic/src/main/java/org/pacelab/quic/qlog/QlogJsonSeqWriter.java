package org.pacelab.quic.qlog;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import org.pacelab.quic.frame.AckFrame;
import org.pacelab.quic.frame.AckFrequencyFrame;
import org.pacelab.quic.frame.ImmediateAckFrame;
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
import com.fasterxml.jackson.core.io.SerializedString;

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
    // field and event names of the frequent events, encoded once (the generator copies their quoted UTF-8 bytes)
    private static final SerializedString F_TIME = new SerializedString("time");
    private static final SerializedString F_NAME = new SerializedString("name");
    private static final SerializedString F_DATA = new SerializedString("data");
    private static final SerializedString F_HEADER = new SerializedString("header");
    private static final SerializedString F_PACKET_TYPE = new SerializedString("packet_type");
    private static final SerializedString F_PACKET_NUMBER = new SerializedString("packet_number");
    private static final SerializedString F_RAW = new SerializedString("raw");
    private static final SerializedString F_LENGTH = new SerializedString("length");
    private static final SerializedString F_SEND_AT_TIME = new SerializedString("send_at_time");
    private static final SerializedString F_FRAMES = new SerializedString("frames");
    private static final SerializedString F_FRAME_TYPE = new SerializedString("frame_type");
    private static final SerializedString F_STREAM_ID = new SerializedString("stream_id");
    private static final SerializedString F_OFFSET = new SerializedString("offset");
    private static final SerializedString F_FIN = new SerializedString("fin");
    private static final SerializedString F_ACKED_RANGES = new SerializedString("acked_ranges");
    private static final SerializedString F_TRIGGER = new SerializedString("trigger");
    private static final SerializedString F_MIN_RTT = new SerializedString("min_rtt");
    private static final SerializedString F_SMOOTHED_RTT = new SerializedString("smoothed_rtt");
    private static final SerializedString F_LATEST_RTT = new SerializedString("latest_rtt");
    private static final SerializedString F_RTT_VARIANCE = new SerializedString("rtt_variance");
    private static final SerializedString F_CONGESTION_WINDOW = new SerializedString("congestion_window");
    private static final SerializedString F_BYTES_IN_FLIGHT = new SerializedString("bytes_in_flight");
    private static final SerializedString F_SSTHRESH = new SerializedString("ssthresh");
    private static final SerializedString F_PACING_RATE = new SerializedString("pacing_rate");
    private static final SerializedString F_MAXIMUM = new SerializedString("maximum");
    private static final SerializedString FRAME_STREAM = new SerializedString("stream");
    private static final SerializedString FRAME_ACK = new SerializedString("ack");
    private static final SerializedString FRAME_CRYPTO = new SerializedString("crypto");
    private static final SerializedString FRAME_PADDING = new SerializedString("padding");
    private static final SerializedString EVENT_CONNECTION_STARTED = new SerializedString("transport:connection_started");
    private static final SerializedString EVENT_PARAMETERS_SET = new SerializedString("transport:parameters_set");
    private static final SerializedString EVENT_PACKET_SENT = new SerializedString("transport:packet_sent");
    private static final SerializedString EVENT_PACKET_RECEIVED = new SerializedString("transport:packet_received");
    private static final SerializedString EVENT_PACKET_DROPPED = new SerializedString("transport:packet_dropped");
    private static final SerializedString EVENT_PACKET_LOST = new SerializedString("recovery:packet_lost");
    private static final SerializedString EVENT_METRICS_UPDATED = new SerializedString("recovery:metrics_updated");
    private static final SerializedString EVENT_CONGESTION_STATE_UPDATED = new SerializedString("recovery:congestion_state_updated");
    private static final SerializedString EVENT_KEY_UPDATED = new SerializedString("security:key_updated");
    private static final SerializedString EVENT_MIGRATION_STATE_UPDATED = new SerializedString("quic:migration_state_updated");
    private static final SerializedString EVENT_CONNECTION_CLOSED = new SerializedString("connectivity:connection_closed");

    private final OutputStream out;
    private final JsonGenerator json;
    private final long baseNanos;
    private final boolean logFrames;
    private final boolean flushEachRecord;
    private final char[] millis = new char[28];

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
            json.writeFieldName(F_NAME);
            json.writeString("pacelab");
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

    private void begin(long now, SerializedString name) throws IOException {
        json.writeRaw(RS);
        json.writeStartObject();
        json.writeFieldName(F_TIME);
        writeMillis(now);
        json.writeFieldName(F_NAME);
        json.writeString(name);
        json.writeFieldName(F_DATA);
        json.writeStartObject();
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
        long abs = Math.abs(rel);
        char[] b = millis;
        int i = decimal(abs / 1_000_000, abs % 1_000_000, 6, b);
        if (rel < 0) {
            b[--i] = '-';
        }
        json.writeNumber(b, i, b.length - i);
    }

    /**
     * Writes {@code whole.fraction} to the end of {@code b}, digits from the right: the {@code fractionDigits} lowest
     * decimal digits of {@code fraction} (leading zeros kept), a point, the digits of {@code whole} (not negative);
     * returns where the text starts. The event times' and the RTTs' writer both use it.
     */
    static int decimal(long whole, long fraction, int fractionDigits, char[] b) {
        int i = b.length;
        for (int d = 0; d < fractionDigits; d++) {
            b[--i] = (char) ('0' + fraction % 10);
            fraction /= 10;
        }
        b[--i] = '.';
        do {
            b[--i] = (char) ('0' + whole % 10);
            whole /= 10;
        } while (whole != 0);
        return i;
    }

    /** Writes {@code ns / 1e6} as {@code json.writeNumber(double)} does ({@link Double#toString(double)}), from digits. */
    private void writeNanosAsMillis(long ns) throws IOException {
        int from = millisDigits(ns, millis);
        if (from < 0) {
            json.writeNumber(ns / 1e6);
        } else {
            json.writeNumber(millis, from, millis.length - from);
        }
    }

    /**
     * The characters {@link Double#toString(double)} gives for {@code ns / 1e6}, written to the end of {@code b}
     * (at least 16 chars); returns where they start, or -1 outside 1,000 ns to 10^13 ns, where the double's text is
     * in E notation or the conversion of {@code ns} to a double may round. Why they are the same: {@code ns / 1e6}
     * is the double nearest to the decimal q = ns / 10^6, which has at most six decimals; q is in the double's
     * rounding interval, and any other decimal of as few digits differs from q by at least 10^-7 while that
     * interval is narrower than 10^-8 below 10^7, so q, without trailing zeros but with one decimal at least, is
     * the shortest decimal the JDK's algorithm prints (in plain notation from 10^-3 to below 10^7). Under C1, as a
     * short simulation runs, the double's conversion cost ~1.7 % of the main thread (docs/benchmarks.md,
     * "Simulator", 2026-12-03 evening); QlogJsonSeqWriterTest compares the two over the range.
     */
    static int millisDigits(long ns, char[] b) {
        if (ns < 1_000L || ns >= 10_000_000_000_000L) {
            return -1;
        }
        long frac = ns % 1_000_000;
        int digits = 6;
        if (frac == 0) {
            digits = 1; // "x.0"
        } else {
            while (frac % 10 == 0) {
                frac /= 10;
                digits--;
            }
        }
        return decimal(ns / 1_000_000, frac, digits, b);
    }

    private static final SerializedString[] PACKET_TYPES = new SerializedString[PacketType.values().length];

    static {
        for (PacketType t : PacketType.values()) {
            PACKET_TYPES[t.ordinal()] = new SerializedString(switch (t) {
                case INITIAL -> "initial";
                case HANDSHAKE -> "handshake";
                case ZERO_RTT -> "0RTT";
                case ONE_RTT -> "1RTT";
                case RETRY -> "retry";
                case VERSION_NEGOTIATION -> "version_negotiation";
            });
        }
    }

    private static SerializedString packetType(PacketType t) {
        return PACKET_TYPES[t.ordinal()];
    }

    @Override
    public void connectionStarted(long now, String localAddress, String remoteAddress, byte[] scid, byte[] dcid) {
        run(() -> {
            begin(now, EVENT_CONNECTION_STARTED);
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
            begin(now, EVENT_PARAMETERS_SET);
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
            begin(now, EVENT_PACKET_SENT);
            header(type, packetNumber);
            json.writeFieldName(F_RAW);
            json.writeStartObject();
            json.writeFieldName(F_LENGTH);
            json.writeNumber(length);
            json.writeEndObject();
            json.writeFieldName(F_SEND_AT_TIME);
            writeMillis(intendedSendTime);
            frames(frames);
            end();
        });
    }

    @Override
    public void packetReceived(long now, PacketType type, long packetNumber, int length, List<Frame> frames) {
        run(() -> {
            begin(now, EVENT_PACKET_RECEIVED);
            header(type, packetNumber);
            json.writeFieldName(F_RAW);
            json.writeStartObject();
            json.writeFieldName(F_LENGTH);
            json.writeNumber(length);
            json.writeEndObject();
            frames(frames);
            end();
        });
    }

    @Override
    public void packetDropped(long now, PacketType type, int length, String trigger) {
        run(() -> {
            begin(now, EVENT_PACKET_DROPPED);
            if (type != null) {
                json.writeFieldName(F_HEADER);
                json.writeStartObject();
                json.writeFieldName(F_PACKET_TYPE);
                json.writeString(packetType(type));
                json.writeEndObject();
            }
            json.writeFieldName(F_RAW);
            json.writeStartObject();
            json.writeFieldName(F_LENGTH);
            json.writeNumber(length);
            json.writeEndObject();
            json.writeFieldName(F_TRIGGER);
            json.writeString(trigger);
            end();
        });
    }

    @Override
    public void packetLost(long now, PacketType type, long packetNumber, String trigger) {
        run(() -> {
            begin(now, EVENT_PACKET_LOST);
            header(type, packetNumber);
            json.writeFieldName(F_TRIGGER);
            json.writeString(trigger);
            end();
        });
    }

    @Override
    public void metricsUpdated(long now, long minRtt, long smoothedRtt, long latestRtt, long rttVariance,
                               long congestionWindow, long bytesInFlight, long ssthresh, long pacingRateBitsPerSecond) {
        run(() -> {
            begin(now, EVENT_METRICS_UPDATED);
            if (minRtt != Long.MAX_VALUE) {
                json.writeFieldName(F_MIN_RTT);
                writeNanosAsMillis(minRtt);
            }
            json.writeFieldName(F_SMOOTHED_RTT);
            writeNanosAsMillis(smoothedRtt);
            json.writeFieldName(F_LATEST_RTT);
            writeNanosAsMillis(latestRtt);
            json.writeFieldName(F_RTT_VARIANCE);
            writeNanosAsMillis(rttVariance);
            json.writeFieldName(F_CONGESTION_WINDOW);
            json.writeNumber(congestionWindow);
            json.writeFieldName(F_BYTES_IN_FLIGHT);
            json.writeNumber(bytesInFlight);
            if (ssthresh != Long.MAX_VALUE) {
                json.writeFieldName(F_SSTHRESH);
                json.writeNumber(ssthresh);
            }
            if (pacingRateBitsPerSecond > 0) {
                json.writeFieldName(F_PACING_RATE);
                json.writeNumber(pacingRateBitsPerSecond);
            }
            end();
        });
    }

    @Override
    public void congestionStateUpdated(long now, String oldState, String newState) {
        run(() -> {
            begin(now, EVENT_CONGESTION_STATE_UPDATED);
            json.writeStringField("old", oldState);
            json.writeStringField("new", newState);
            end();
        });
    }

    @Override
    public void keyUpdated(long now, String keyType, long generation, String trigger) {
        run(() -> {
            begin(now, EVENT_KEY_UPDATED);
            json.writeStringField("key_type", keyType);
            json.writeNumberField("generation", generation);
            json.writeFieldName(F_TRIGGER);
            json.writeString(trigger);
            end();
        });
    }

    @Override
    public void migrationStateUpdated(long now, String state, String path, String reason) {
        run(() -> {
            begin(now, EVENT_MIGRATION_STATE_UPDATED);
            json.writeStringField("new", state);
            json.writeStringField("path", path);
            if (!reason.isEmpty()) {
                json.writeFieldName(F_TRIGGER);
                json.writeString(reason);
            }
            end();
        });
    }

    @Override
    public void connectionClosed(long now, boolean local, long errorCode, boolean application, String reason) {
        run(() -> {
            begin(now, EVENT_CONNECTION_CLOSED);
            json.writeStringField("owner", local ? "local" : "remote");
            json.writeNumberField(application ? "application_code" : "connection_code", errorCode);
            json.writeStringField("reason", reason == null ? "" : reason);
            end();
        });
    }

    private void header(PacketType type, long pn) throws IOException {
        json.writeFieldName(F_HEADER);
        json.writeStartObject();
        json.writeFieldName(F_PACKET_TYPE);
        json.writeString(packetType(type));
        json.writeFieldName(F_PACKET_NUMBER);
        json.writeNumber(pn);
        json.writeEndObject();
    }

    private void streamFrame(long streamId, long offset, int length, boolean fin) throws IOException {
        json.writeFieldName(F_FRAME_TYPE);
        json.writeString(FRAME_STREAM);
        json.writeFieldName(F_STREAM_ID);
        json.writeNumber(streamId);
        json.writeFieldName(F_OFFSET);
        json.writeNumber(offset);
        json.writeFieldName(F_LENGTH);
        json.writeNumber(length);
        json.writeFieldName(F_FIN);
        json.writeBoolean(fin);
    }

    private void frames(List<Frame> frames) throws IOException {
        if (!logFrames || frames == null) {
            return;
        }
        json.writeFieldName(F_FRAMES);
        json.writeStartArray();
        for (Frame f : frames) {
            json.writeStartObject();
            switch (f) {
                case StreamFrame s -> streamFrame(s.streamId(), s.offset(), s.data().length, s.fin());
                case StreamDataSent s -> streamFrame(s.streamId(), s.offset(), s.length(), s.fin());
                case AckFrame a -> {
                    json.writeFieldName(F_FRAME_TYPE);
                    json.writeString(FRAME_ACK);
                    json.writeFieldName(F_ACKED_RANGES);
                    json.writeStartArray();
                    for (int i = a.ranges().length - 2; i >= 0; i -= 2) {
                        json.writeStartArray();
                        json.writeNumber(a.ranges()[i + 1]);
                        json.writeNumber(a.ranges()[i]);
                        json.writeEndArray();
                    }
                    json.writeEndArray();
                }
                case CryptoFrame c -> {
                    json.writeFieldName(F_FRAME_TYPE);
                    json.writeString(FRAME_CRYPTO);
                    json.writeFieldName(F_OFFSET);
                    json.writeNumber(c.offset());
                    json.writeFieldName(F_LENGTH);
                    json.writeNumber(c.data().length);
                }
                case MaxDataFrame m -> {
                    json.writeFieldName(F_FRAME_TYPE);
                    json.writeString("max_data");
                    json.writeFieldName(F_MAXIMUM);
                    json.writeNumber(m.max());
                }
                case MaxStreamDataFrame m -> {
                    json.writeFieldName(F_FRAME_TYPE);
                    json.writeString("max_stream_data");
                    json.writeFieldName(F_STREAM_ID);
                    json.writeNumber(m.streamId());
                    json.writeFieldName(F_MAXIMUM);
                    json.writeNumber(m.max());
                }
                case PaddingFrame p -> {
                    json.writeFieldName(F_FRAME_TYPE);
                    json.writeString(FRAME_PADDING);
                    json.writeFieldName(F_LENGTH);
                    json.writeNumber(p.length());
                }
                case ConnectionCloseFrame c -> {
                    json.writeFieldName(F_FRAME_TYPE);
                    json.writeString("connection_close");
                    json.writeStringField("error_space", c.application() ? "application" : "transport");
                    json.writeNumberField("error_code", c.errorCode());
                    json.writeStringField("reason", c.reason());
                }
                case AckFrequencyFrame a -> {
                    json.writeFieldName(F_FRAME_TYPE);
                    json.writeString("ack_frequency");
                    json.writeNumberField("sequence_number", a.sequenceNumber());
                    json.writeNumberField("ack_eliciting_threshold", a.ackElicitingThreshold());
                    json.writeNumberField("request_max_ack_delay", a.requestMaxAckDelay() / 1000.0);
                    json.writeNumberField("reordering_threshold", a.reorderingThreshold());
                }
                case ImmediateAckFrame i -> {
                    json.writeFieldName(F_FRAME_TYPE);
                    json.writeString("immediate_ack");
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
