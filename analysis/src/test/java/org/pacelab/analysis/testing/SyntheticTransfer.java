package org.pacelab.analysis.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

import org.pacelab.quic.crypto.CipherSuite;

/**
 * A QUIC transfer made up for tests: a capture (pcapng, Ethernet, 10.0.0.1:443 serving 10.0.0.2:50000) with a
 * handshake and server 1-RTT packets at chosen wire times, its key log, and the server's qlog (pacelab's JSON-SEQ
 * form) whose {@code send_at_time} values are the intended send times.
 */
public final class SyntheticTransfer {
    public static final int SERVER_PORT = 443;
    public static final int PACKET_SIZE = 1200;

    /** Files written. */
    public record Files3(Path capture, Path keyLog, Path qlogDir) {}

    private SyntheticTransfer() {}

    /**
     * @param wireNs       capture times of the server's 1-RTT packets (ns since the epoch), packet numbers 0..n-1
     * @param intendedNs   intended send times (ns since the epoch), same length, or null for a qlog without them
     * @param pacingRateBps pacing rate to log, or 0 for none
     */
    public static Files3 write(Path dir, long[] wireNs, long[] intendedNs, double pacingRateBps, CipherSuite suite)
            throws IOException {
        return write(dir, wireNs, intendedNs, pacingRateBps, suite, intendedNs == null, 1);
    }

    /**
     * As above; with {@code wholeMilliseconds} the qlog's event times are whole milliseconds (as ngtcp2 writes
     * them), otherwise each packet_sent is logged 5 us before its wire time.
     */
    public static Files3 write(Path dir, long[] wireNs, long[] intendedNs, double pacingRateBps, CipherSuite suite,
                               boolean wholeMilliseconds) throws IOException {
        return write(dir, wireNs, intendedNs, pacingRateBps, suite, wholeMilliseconds, 1);
    }

    /**
     * Like {@link #write(Path, long[], long[], double, CipherSuite)}, but every {@code gsoSegments} consecutive server
     * 1-RTT packets are captured as one frame at the first one's time: a UDP GSO buffer as a capture on the sending
     * host records it.
     */
    public static Files3 write(Path dir, long[] wireNs, long[] intendedNs, double pacingRateBps, CipherSuite suite,
                               int gsoSegments) throws IOException {
        return write(dir, wireNs, intendedNs, pacingRateBps, suite, intendedNs == null, gsoSegments);
    }

    private static Files3 write(Path dir, long[] wireNs, long[] intendedNs, double pacingRateBps, CipherSuite suite,
                                boolean wholeMilliseconds, int gsoSegments) throws IOException {
        return write(dir, wireNs, intendedNs, pacingRateBps, suite, wholeMilliseconds, gsoSegments, 0, -1);
    }

    /**
     * Like {@link #write(Path, long[], long[], double, CipherSuite)}, with the server's qlog also logging a
     * packet_received for each client 1-RTT packet {@code uplinkNs} after the capture saw it, and every time of the
     * qlog (events, send_at_time) on a clock {@code qlogAheadNs} ahead of the capture's: what a step of the wall clock
     * between the moments the two clocks were tied to it leaves.
     */
    public static Files3 writeWithClocks(Path dir, long[] wireNs, long[] intendedNs, long qlogAheadNs, long uplinkNs)
            throws IOException {
        return write(dir, wireNs, intendedNs, 40e6, CipherSuite.AES_128_GCM_SHA256, false, 1, qlogAheadNs, uplinkNs);
    }

    /** {@code uplinkNs} < 0: no packet_received events. */
    private static Files3 write(Path dir, long[] wireNs, long[] intendedNs, double pacingRateBps, CipherSuite suite,
                                boolean wholeMilliseconds, int gsoSegments, long qlogAheadNs, long uplinkNs)
            throws IOException {
        Files.createDirectories(dir);
        SyntheticQuic q = new SyntheticQuic(suite, 7);
        // a whole millisecond: qlog's reference_time is a double of ms since the epoch, exact only for whole values
        long t0 = Math.floorDiv(wireNs[0] - 3_000_000, 1_000_000) * 1_000_000;
        List<CaptureFiles.Frame> frames = new ArrayList<>();
        frames.add(new CaptureFiles.Frame(t0, Frames.udpOverEthernet(2, 50000, 1, SERVER_PORT, q.clientInitial(0))));
        frames.add(new CaptureFiles.Frame(t0 + 1_000_000, Frames.udpOverEthernet(1, SERVER_PORT, 2, 50000,
                q.serverInitialAndHandshake(0, 0))));
        frames.add(new CaptureFiles.Frame(t0 + 2_000_000, Frames.udpOverEthernet(2, 50000, 1, SERVER_PORT, q.clientHandshake(0))));
        long clientPn = 0;
        List<long[]> clientOneRtt = new ArrayList<>(); // {capture time, packet number}
        java.io.ByteArrayOutputStream buffer = new java.io.ByteArrayOutputStream();
        for (int i = 0; i < wireNs.length; i++) {
            buffer.writeBytes(q.server1Rtt(i, i - 1, PACKET_SIZE, 0));
            if ((i + 1) % gsoSegments == 0 || i == wireNs.length - 1) {
                frames.add(new CaptureFiles.Frame(wireNs[i - i % gsoSegments], Frames.udpOverEthernet(1, SERVER_PORT, 2, 50000,
                        buffer.toByteArray())));
                buffer.reset();
            }
            if (i % 10 == 9) {
                frames.add(new CaptureFiles.Frame(wireNs[i] + 1, Frames.udpOverEthernet(2, 50000, 1, SERVER_PORT,
                        q.client1Rtt(clientPn, clientPn - 1))));
                clientOneRtt.add(new long[] {wireNs[i] + 1, clientPn});
                clientPn++;
            }
        }
        Path capture = dir.resolve("capture.pcapng");
        Files.write(capture, CaptureFiles.pcapngEthernet(frames));
        Path keyLog = dir.resolve("keys.log");
        Files.writeString(keyLog, q.keyLog());
        Path qlogDir = dir.resolve("qlog");
        Files.createDirectories(qlogDir);
        double referenceMs = t0 / 1e6;
        StringBuilder s = new StringBuilder();
        s.append('\u001e').append(String.format(Locale.ROOT, "{\"qlog_format\":\"JSON-SEQ\",\"qlog_version\":\"0.3\","
                + "\"trace\":{\"vantage_point\":{\"type\":\"server\"},\"common_fields\":{\"group_id\":\"%s\","
                + "\"reference_time\":%.6f,\"time_format\":\"relative\"}}}%n", HexFormat.of().formatHex(q.odcid), referenceMs));
        long cwnd = 12000;
        int received = 0;
        for (int i = 0; i < wireNs.length; i++) {
            double eventMs = (wireNs[i] - 5_000 - t0 + qlogAheadNs) / 1e6;
            while (uplinkNs >= 0 && received < clientOneRtt.size() && clientOneRtt.get(received)[0] <= wireNs[i]) {
                long[] c = clientOneRtt.get(received++);
                s.append('\u001e').append(String.format(Locale.ROOT, "{\"time\":%.6f,\"name\":\"transport:packet_received\","
                        + "\"data\":{\"header\":{\"packet_type\":\"1RTT\",\"packet_number\":%d},\"raw\":{\"length\":50}}}%n",
                        (c[0] + uplinkNs - t0 + qlogAheadNs) / 1e6, c[1]));
            }
            if (wholeMilliseconds) {
                eventMs = Math.floor(eventMs);
            }
            if (i % 5 == 0) {
                cwnd += 1200;
                s.append('\u001e').append(String.format(Locale.ROOT, "{\"time\":%.6f,\"name\":\"recovery:metrics_updated\","
                        + "\"data\":{\"congestion_window\":%d,\"bytes_in_flight\":%d,\"smoothed_rtt\":40.0,\"min_rtt\":39.5%s}}%n",
                        eventMs, cwnd, i * 100 % cwnd, pacingRateBps > 0 ? ",\"pacing_rate\":" + (long) pacingRateBps : ""));
            }
            String sendAt = intendedNs == null ? "" : String.format(Locale.ROOT, ",\"send_at_time\":%.6f",
                    (intendedNs[i] - t0 + qlogAheadNs) / 1e6);
            s.append('\u001e').append(String.format(Locale.ROOT, "{\"time\":%.6f,\"name\":\"transport:packet_sent\","
                    + "\"data\":{\"header\":{\"packet_type\":\"1RTT\",\"packet_number\":%d},\"raw\":{\"length\":%d}%s}}%n",
                    eventMs, i, PACKET_SIZE, sendAt));
        }
        Files.writeString(qlogDir.resolve("server.sqlog"), s, StandardCharsets.UTF_8);
        return new Files3(capture, keyLog, qlogDir);
    }
}
