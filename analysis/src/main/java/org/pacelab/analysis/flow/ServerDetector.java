package org.pacelab.analysis.flow;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import org.pacelab.analysis.capture.CaptureReader;
import org.pacelab.analysis.capture.CapturedFrame;
import org.pacelab.analysis.packet.DecodedPacket;
import org.pacelab.analysis.packet.Endpoint;
import org.pacelab.analysis.packet.PacketDecoder;
import org.pacelab.analysis.quic.ClientInitialProbe;

/**
 * Finds the server by reading the start of a capture (at most {@link #SCAN_LIMIT} frames): with a given port, the
 * first endpoint using it; for QUIC, the side that answers the first client Initial with an Initial of its own
 * (addressed to the client's Source Connection ID); for TCP, the sender of SYN+ACK; failing all, the endpoint that
 * sent the most payload bytes.
 */
public final class ServerDetector {
    public static final int SCAN_LIMIT = 200_000;

    private ServerDetector() {}

    /** Scans the reader from its current position; empty when the capture holds no UDP or TCP packet. */
    public static Optional<ServerSide> detect(CaptureReader reader, Integer serverPort) throws IOException {
        CapturedFrame frame = new CapturedFrame();
        DecodedPacket p = new DecodedPacket();
        Map<Flow, long[]> bytesSent = new HashMap<>();
        Endpoint clientInitialFrom = null;
        Endpoint clientInitialTo = null;
        byte[] clientScid = null;
        int frames = 0;
        while (frames < SCAN_LIMIT && readQuietly(reader, frame)) {
            frames++;
            if (PacketDecoder.decode(frame, p) != DecodedPacket.Status.OK) {
                continue;
            }
            if (serverPort != null) {
                if (p.srcPort() == serverPort) {
                    return Optional.of(new ServerSide(p.source(), p.transport(), ServerSide.Method.SERVER_PORT_OPTION));
                }
                if (p.dstPort() == serverPort) {
                    return Optional.of(new ServerSide(p.destination(), p.transport(), ServerSide.Method.SERVER_PORT_OPTION));
                }
                continue;
            }
            if (p.transport() == DecodedPacket.TCP && (p.tcpFlags() & 0x12) == 0x12) {
                return Optional.of(new ServerSide(p.source(), DecodedPacket.TCP, ServerSide.Method.SYN_ACK));
            }
            int start = p.payloadOffset();
            int end = start + p.capturedPayloadLength();
            if (p.transport() == DecodedPacket.UDP) {
                if (clientInitialFrom == null) {
                    if (ClientInitialProbe.isClientInitial(p.buffer(), start, end)) {
                        clientInitialFrom = p.source();
                        clientInitialTo = p.destination();
                        clientScid = ClientInitialProbe.initialIds(p.buffer(), start, end).scid();
                    }
                } else if (clientInitialTo.isSourceOf(p) && clientInitialFrom.isDestinationOf(p)) {
                    ClientInitialProbe.InitialIds ids = ClientInitialProbe.initialIds(p.buffer(), start, end);
                    if (ids != null && java.util.Arrays.equals(ids.dcid(), clientScid)) {
                        return Optional.of(new ServerSide(clientInitialTo, DecodedPacket.UDP, ServerSide.Method.INITIAL_RESPONSE));
                    }
                }
            }
            bytesSent.computeIfAbsent(new Flow(p.source(), p.transport()), k -> new long[1])[0] += p.payloadLength();
        }
        if (clientInitialTo != null) {
            return Optional.of(new ServerSide(clientInitialTo, DecodedPacket.UDP, ServerSide.Method.CLIENT_INITIAL));
        }
        return bytesSent.entrySet().stream()
                .max((a, b) -> Long.compare(a.getValue()[0], b.getValue()[0]))
                .map(e -> new ServerSide(e.getKey().endpoint(), e.getKey().transport(), ServerSide.Method.MOST_BYTES_SENT));
    }

    /** A corrupt record ends the scan quietly: the main pass reports it with its offset. */
    private static boolean readQuietly(CaptureReader reader, CapturedFrame frame) {
        try {
            return reader.next(frame);
        } catch (IOException e) {
            return false;
        }
    }

    private record Flow(Endpoint endpoint, int transport) {}
}
