package org.pacelab.analysis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.pacelab.analysis.capture.CaptureFormatException;
import org.pacelab.analysis.capture.CaptureReader;
import org.pacelab.analysis.capture.CapturedFrame;
import org.pacelab.analysis.flow.ServerSide;
import org.pacelab.analysis.metrics.ClockCheck;
import org.pacelab.analysis.metrics.GapTrainMeter;
import org.pacelab.analysis.metrics.PrecisionMeter;
import org.pacelab.analysis.metrics.RunDistributions;
import org.pacelab.analysis.packet.DecodedPacket;
import org.pacelab.analysis.packet.Endpoint;
import org.pacelab.analysis.packet.PacketDecoder;
import org.pacelab.analysis.qlog.QlogMatcher;
import org.pacelab.analysis.qlog.QlogTrace;
import org.pacelab.analysis.qlog.SentPackets;
import org.pacelab.analysis.quic.DatagramInfo;
import org.pacelab.analysis.quic.KeyLog;
import org.pacelab.analysis.quic.QuicConnection;
import org.pacelab.analysis.quic.QuicDissector;
import org.pacelab.analysis.table.PacketCsvWriter;
import org.pacelab.analysis.tcp.TcpFlow;
import org.pacelab.quic.packet.PacketType;

/**
 * The streaming pass over a capture: classifies each frame by the server side, dissects QUIC or TCP, feeds the
 * server's packets to the gap/train and precision meters, and writes the per-packet table. Its counters are read
 * afterwards by {@link SummaryAssembler}. A pass made while the qlog is still being written (a capture streamed during a
 * simulation, {@link StreamedCapture}) holds back what needs the qlog — the match of each server packet with its
 * {@code packet_sent} event, the precision samples and the table's rows — and {@link #replay} does it in the same
 * order once the qlog's traces are read.
 */
final class AnalysisPass {
    final ServerSide server;
    final QuicDissector dissector;
    QlogMatcher qlogs;
    final GapTrainMeter meter;
    final RunDistributions distributions = RunDistributions.empty();
    final PrecisionMeter precision = new PrecisionMeter(distributions.sendDelays());
    final ClockCheck clock = new ClockCheck();
    final Map<Endpoint, TcpFlow> tcpFlows = new HashMap<>();
    private PacketCsvWriter csv;
    /** What waits for the qlog, in pass order; null when the pass has its qlog from the start. */
    private List<Held> held;
    private QuicConnection lastHeldConnection;
    String truncation;
    long frames;
    long undecoded;
    long serverPackets;
    long clientPackets;
    long serverBytes;
    long firstServerNs = Long.MIN_VALUE;
    long lastServerNs = Long.MIN_VALUE;
    long firstDataNs = Long.MIN_VALUE;
    long lastDataNs = Long.MIN_VALUE;
    /** Server 1-RTT packets found in a qlog trace, with or without an intended send time. */
    long inQlog;
    /** Server 1-RTT packets whose precision sample is against the qlog's packet_sent time (no send_at_time logged). */
    long matchedOnEventTime;
    private TcpFlow cachedFlow;
    private QuicConnection lastConnection;
    private QlogTrace lastTrace;
    private final StringBuilder types = new StringBuilder();
    private final StringBuilder numbers = new StringBuilder();
    private final CapturedFrame frame = new CapturedFrame();
    private final DecodedPacket packet = new DecodedPacket();
    private final DatagramInfo info = new DatagramInfo();

    AnalysisPass(ServerSide server, KeyLog keyLog, QlogMatcher qlogs, long thresholdNs, PacketCsvWriter csv) {
        this.server = server;
        this.dissector = new QuicDissector(keyLog);
        this.qlogs = qlogs;
        this.csv = csv;
        this.meter = new GapTrainMeter(thresholdNs, distributions.gaps(), distributions.trains(), this::trainEnded);
    }

    /**
     * Rows (and train ends) a {@link #holdingBack} pass keeps at most until the qlog is read: a row is a record with
     * two short strings, about 200 bytes, so at most about 200 MB are held (a run of about 1 GiB has this many
     * packets). Past it the pass ends with an {@link IOException} and the analysis reads the files, as when the
     * streamed pass does not match them, instead of risking an OutOfMemoryError on the simulation's thread.
     */
    static final int MAX_HELD_ROWS = 1_000_000;

    /** A pass whose qlog matches and table rows wait for {@link #replay}; it fails past {@code maxHeldRows} rows. */
    static AnalysisPass holdingBack(ServerSide server, KeyLog keyLog, long thresholdNs, int maxHeldRows) {
        AnalysisPass p = new AnalysisPass(server, keyLog, null, thresholdNs, null);
        p.held = new ArrayList<>();
        p.maxHeldRows = maxHeldRows;
        return p;
    }

    private int maxHeldRows;

    /** Holds {@code h} back; past {@link #maxHeldRows} the pass ends ({@link #run} throws the IOException). */
    private void hold(Held h) {
        if (held.size() >= maxHeldRows) {
            throw new UncheckedIOException(new IOException("the streamed pass would hold back more than " + maxHeldRows
                    + " rows until the qlog is read (AnalysisPass.MAX_HELD_ROWS)"));
        }
        held.add(h);
    }

    /** A row or train end held back: {@code kind} CLIENT, SERVER (with a qlog match when {@code quic}) or TRAIN. */
    record Held(int kind, long frame, long timeNs, int bytes, String types, String numbers, long gap, long train,
                        int retransmission, boolean quic, long pn, QuicConnection conn, String originalDcidHex,
                        String serverCidHex) {}

    static final int CLIENT = 0;
    static final int SERVER = 1;
    static final int TRAIN = 2;

    /**
     * Does what a {@link #holdingBack} pass held back, in its order, as the pass would have with {@code qlogs} and
     * {@code csv} from the start (after {@link #run}). The table's rows go to {@code csv} on a thread of their own
     * ({@link HeldRows}, {@code packets-csv}) that follows this one through the held rows, each row with the send delay
     * and target gap found here; {@link #rowsWritten} waits for it, {@link #stopRows} ends it.
     */
    void replay(QlogMatcher qlogs, PacketCsvWriter csv) throws IOException {
        this.qlogs = qlogs;
        this.csv = null; // the rows are written by the rows' thread
        List<Held> ops = held;
        held = null;
        long[] found = new long[2 * ops.size()];
        HeldRows writing = csv == null ? null : HeldRows.start(ops, found, csv);
        rows = writing;
        for (int i = 0; i < ops.size(); i++) {
            replay(ops.get(i), found, i);
            if (writing != null && (i & HeldRows.PUBLISH_MASK) == HeldRows.PUBLISH_MASK) {
                writing.publish(i + 1);
            }
        }
        if (writing != null) {
            writing.publish(ops.size());
        }
    }

    /** The rows' thread of {@link #replay}, or null. */
    private HeldRows rows;

    /** The event log read while the pass replays (a simulated run's analysis), for the summary's drops; or null. */
    EmulatorLog.Ahead eventsAhead;

    /** Waits until the rows' thread has written every held row to the table; throws what it failed with. */
    void rowsWritten() throws IOException {
        if (rows != null) {
            rows.await();
        }
    }

    /** Ends the rows' thread (if still running) and waits for it: the analysis failed, the table is not used. */
    void stopRows() {
        if (rows != null) {
            rows.stop();
        }
    }

    /** {@code h}'s analysis; a QUIC server row's send delay and target gap go to {@code found[2i]}, {@code found[2i + 1]}. */
    private void replay(Held h, long[] found, int i) {
        switch (h.kind()) {
            case CLIENT -> {
                if (h.quic() && h.conn() != null) {
                    clientReceived(h.timeNs(), replayTrace(h), h.pn());
                }
            }
            case TRAIN -> { }
            default -> {
                QlogTrace trace = replayTrace(h);
                if (h.quic()) {
                    quicServerRow(h.frame(), h.timeNs(), h.bytes(), h.types(), h.numbers(), h.gap(), h.train(), trace, h.pn());
                    found[2 * i] = lastDelay;
                    found[2 * i + 1] = lastTarget;
                }
            }
        }
    }

    /**
     * Writes held row {@code h} to {@code csv} as the pass would have with its table from the start ({@code delay} and
     * {@code target}: what {@link #quicServerRow} found for a QUIC server row).
     */
    static void writeRow(Held h, long delay, long target, PacketCsvWriter csv) throws IOException {
        switch (h.kind()) {
            case CLIENT -> csv.clientRow(h.frame(), h.timeNs(), h.bytes(), h.types(), h.numbers());
            case TRAIN -> csv.trainEnded(h.train(), (int) h.gap());
            default -> {
                if (h.quic()) {
                    csv.serverRow(h.frame(), h.timeNs(), h.bytes(), h.types(), h.numbers(), h.gap() < 0 ? PacketCsvWriter.NONE : h.gap(),
                            h.train(), -1, delay, target);
                } else {
                    csv.serverRow(h.frame(), h.timeNs(), h.bytes(), h.types(), h.numbers(), h.gap() < 0 ? PacketCsvWriter.NONE : h.gap(),
                            h.train(), h.retransmission(), PacketCsvWriter.NONE, PacketCsvWriter.NONE);
                }
            }
        }
    }

    /** The trace of a held row's connection as the pass found it (the lookup's arguments come with each change). */
    private QlogTrace replayTrace(Held h) {
        if (h.conn() == null || qlogs.serverTraces() == 0) {
            return null;
        }
        if (h.originalDcidHex() != null) {
            lastConnection = h.conn();
            lastTrace = qlogs.traceFor(h.conn(), h.originalDcidHex(), h.serverCidHex());
        }
        return lastTrace;
    }

    /**
     * A client 1-RTT packet the capture saw at {@code t}: when the server's trace logged its packet_received, the
     * server's receive time less the capture's time is the clock check's upward sample (a packet reaches the server
     * after the capture point, so the sample is the path's delay plus the offset of the trace's clock).
     */
    private void clientReceived(long t, QlogTrace trace, long pn) {
        if (trace == null || pn < 0 || trace.referenceTimeNs() == 0 || !trace.received().contains(pn)) {
            return;
        }
        long up = trace.referenceTimeNs() + Math.round(trace.received().eventMs(pn) * 1e6) - t;
        clock.onUp(up);
    }

    private void trainEnded(long index, int length) {
        if (held != null) {
            hold(new Held(TRAIN, 0, 0, 0, null, null, length, index, 0, false, -1, null, null, null));
            return;
        }
        if (csv != null) {
            try {
                csv.trainEnded(index, length);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    void run(CaptureReader reader) throws IOException {
        try {
            while (reader.next(frame)) {
                frames++;
                onFrame();
            }
            truncation = reader.truncation().orElse(null);
        } catch (CaptureFormatException e) {
            truncation = e.getMessage();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        try {
            meter.finish();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    private void onFrame() throws IOException {
        if (PacketDecoder.decode(frame, packet) != DecodedPacket.Status.OK) {
            undecoded++;
            return;
        }
        if (server == null) {
            return;
        }
        boolean fromServer = server.fromServer(packet);
        if (!fromServer && !server.toServer(packet)) {
            return;
        }
        if (server.isQuic()) {
            quic(fromServer);
        } else {
            tcp(fromServer);
        }
    }

    /** A QUIC frame: one datagram, or a UDP GSO buffer split into its datagrams (all with the frame's timestamp). */
    private void quic(boolean fromServer) throws IOException {
        int segment = dissector.gsoSegmentSize(packet, fromServer);
        if (segment == 0) {
            quicDatagram(fromServer);
            return;
        }
        int offset = packet.payloadOffset();
        int length = packet.payloadLength();
        int captured = packet.capturedPayloadLength();
        for (int at = 0; at < length; at += segment) {
            packet.narrowPayload(offset + at, Math.min(segment, length - at), Math.clamp(captured - at, 0, segment));
            quicDatagram(fromServer);
        }
        packet.narrowPayload(offset, length, captured);
    }

    private void quicDatagram(boolean fromServer) throws IOException {
        long t = frame.timestampNs();
        dissector.dissect(packet, fromServer, t, info);
        describe(info);
        if (!fromServer) {
            clientPackets++;
            long clientPn = lastOneRttPacketNumber();
            QuicConnection clientConn = clientPn < 0 ? null : info.connection();
            if (held != null) {
                holdQuicRow(CLIENT, t, 0, 0, 0, clientPn, clientConn);
            } else {
                clientReceived(t, clientConn == null ? null : traceOf(clientConn), clientPn);
                if (csv != null) {
                    csv.clientRow(frames, t, packet.payloadLength(), types, numbers);
                }
            }
            return;
        }
        long gap = serverPacket(t);
        boolean oneRtt = hasOneRttPacket();
        long pn = lastOneRttPacketNumber();
        QuicConnection conn = null;
        if (oneRtt) {
            if (firstDataNs == Long.MIN_VALUE) {
                firstDataNs = t;
            }
            lastDataNs = t;
            conn = pn < 0 ? null : info.connection();
        }
        if (held != null) {
            holdQuicRow(SERVER, t, gap, meter.currentTrainIndex(), -1, pn, conn);
            return;
        }
        QlogTrace trace = conn == null ? null : traceOf(conn);
        quicServerRow(frames, t, packet.payloadLength(), types, numbers, gap, meter.currentTrainIndex(), trace, pn);
    }

    /** Whether the datagram just dissected holds a 1-RTT packet. */
    private boolean hasOneRttPacket() {
        for (int i = 0; i < info.count(); i++) {
            if (info.type(i) == PacketType.ONE_RTT) {
                return true;
            }
        }
        return false;
    }

    /** The packet number of the datagram's last 1-RTT packet, -1 when it has none (or its number is unknown). */
    private long lastOneRttPacketNumber() {
        long pn = -1;
        for (int i = 0; i < info.count(); i++) {
            if (info.type(i) == PacketType.ONE_RTT) {
                pn = info.packetNumber(i);
            }
        }
        return pn;
    }

    /**
     * Holds back the current QUIC datagram's row. The qlog lookup's arguments are taken as they are now: a row whose
     * connection differs from the previous held row's carries that connection's ids, as {@code traceOf} looks a
     * connection up each time it changes.
     */
    private void holdQuicRow(int kind, long t, long gap, long train, int retransmission, long pn, QuicConnection conn) {
        String odcid = null;
        String scid = null;
        if (conn != null && conn != lastHeldConnection) {
            lastHeldConnection = conn;
            odcid = conn.originalDcidHex();
            scid = conn.serverCidHex();
        }
        hold(new Held(kind, frames, t, packet.payloadLength(), types.toString(), numbers.toString(), gap, train,
                retransmission, true, pn, conn, odcid, scid));
    }

    /** A QUIC server packet's match with its qlog trace (null: none), precision samples and table row. */
    private void quicServerRow(long frame, long t, int bytes, CharSequence types, CharSequence numbers, long gap, long train,
                               QlogTrace trace, long pn) {
        long delay = PacketCsvWriter.NONE;
        long target = PacketCsvWriter.NONE;
        if (trace != null && trace.sent().contains(pn)) {
            inQlog++;
            SentPackets sent = trace.sent();
            double sendAtMs = sent.sendAtMs(pn);
            // an intended send time bounds the clock check's downward delay from below (a packet_sent time does not:
            // a stack may log it after the send)
            boolean intended = !Double.isNaN(sendAtMs);
            if (Double.isNaN(sendAtMs) && trace.fineSendTimes()) {
                // a stack that logs no intended send time: its packet_sent time is when it sent the packet
                sendAtMs = sent.eventMs(pn);
                matchedOnEventTime++;
            }
            if (!Double.isNaN(sendAtMs)) {
                delay = t - trace.referenceTimeNs() - Math.round(sendAtMs * 1e6);
                precision.onMatched(delay);
                if (intended && trace.referenceTimeNs() != 0) {
                    clock.onDown(delay);
                }
            }
            double rate = sent.pacingRateBps(pn);
            int size = sent.size(pn);
            if (rate > 0 && size > 0 && gap >= 0) {
                target = Math.round(size * 8e9 / rate);
                if (target > 0) {
                    precision.onGap(target, gap);
                } else {
                    target = PacketCsvWriter.NONE;
                }
            }
        }
        lastDelay = delay;
        lastTarget = target;
        if (csv != null) {
            csv.serverRow(frame, t, bytes, types, numbers, gap < 0 ? PacketCsvWriter.NONE : gap, train, -1, delay, target);
        }
    }

    /** The send delay and target gap of the last {@link #quicServerRow}. */
    private long lastDelay;
    private long lastTarget;

    private void tcp(boolean fromServer) throws IOException {
        long t = frame.timestampNs();
        TcpFlow flow = flow(fromServer);
        if (!fromServer) {
            clientPackets++;
            if (held != null) {
                hold(new Held(CLIENT, frames, t, packet.payloadLength(), "tcp", "", 0, 0, 0, false, -1, null, null, null));
            } else if (csv != null) {
                csv.clientRow(frames, t, packet.payloadLength(), "tcp", "");
            }
            return;
        }
        if (packet.payloadLength() == 0) {
            return; // pure ACK, SYN or FIN: not a data segment
        }
        boolean retransmission = flow.onServerData(packet.tcpSeq(), packet.payloadLength());
        if (firstDataNs == Long.MIN_VALUE) {
            firstDataNs = t;
        }
        lastDataNs = t;
        long gap = serverPacket(t);
        if (held != null) {
            hold(new Held(SERVER, frames, t, packet.payloadLength(), "tcp", "", gap, meter.currentTrainIndex(),
                    retransmission ? 1 : 0, false, -1, null, null, null));
        } else if (csv != null) {
            csv.serverRow(frames, t, packet.payloadLength(), "tcp", "", gap < 0 ? PacketCsvWriter.NONE : gap,
                    meter.currentTrainIndex(), retransmission ? 1 : 0, PacketCsvWriter.NONE, PacketCsvWriter.NONE);
        }
    }

    /** The qlog trace of a connection, remembered for the last connection seen (no lookup per packet). */
    private QlogTrace traceOf(QuicConnection conn) {
        if (conn == null || qlogs.serverTraces() == 0) {
            return null;
        }
        if (conn != lastConnection) {
            lastConnection = conn;
            lastTrace = qlogs.traceFor(conn, conn.originalDcidHex(), conn.serverCidHex());
        }
        return lastTrace;
    }

    /** Counts a server packet for gaps and trains; returns its gap or -1 for the first. */
    private long serverPacket(long t) {
        serverPackets++;
        serverBytes += packet.payloadLength();
        if (firstServerNs == Long.MIN_VALUE) {
            firstServerNs = t;
        }
        lastServerNs = Math.max(lastServerNs, t);
        return meter.onPacket(t);
    }

    private TcpFlow flow(boolean fromServer) {
        if (cachedFlow != null && (fromServer ? cachedFlow.client().isDestinationOf(packet) : cachedFlow.client().isSourceOf(packet))) {
            return cachedFlow;
        }
        Endpoint client = fromServer ? packet.destination() : packet.source();
        cachedFlow = tcpFlows.computeIfAbsent(client, TcpFlow::new);
        return cachedFlow;
    }

    private void describe(DatagramInfo d) {
        types.setLength(0);
        numbers.setLength(0);
        for (int i = 0; i < d.count(); i++) {
            if (i > 0) {
                types.append(';');
                numbers.append(';');
            }
            types.append(qlogName(d.type(i)));
            long pn = d.packetNumber(i);
            if (pn >= 0) {
                numbers.append(pn);
            } else {
                numbers.append('-');
            }
        }
    }

    /** Packet type names as qlog writes them. */
    static String qlogName(PacketType t) {
        return switch (t) {
            case INITIAL -> "initial";
            case ZERO_RTT -> "0RTT";
            case HANDSHAKE -> "handshake";
            case RETRY -> "retry";
            case VERSION_NEGOTIATION -> "version_negotiation";
            case ONE_RTT -> "1RTT";
        };
    }
}
