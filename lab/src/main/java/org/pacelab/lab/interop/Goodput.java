package org.pacelab.lab.interop;

import java.io.IOException;
import java.util.List;
import java.util.Locale;

import org.pacelab.lab.interop.Trace.Direction;

/**
 * The runner's goodput of one repetition ({@code MeasurementGoodput.check}): one handshake, QUIC v1 and the file intact,
 * then the file's bytes over the time from the server's first to its last 1-RTT packet in the trace,
 * {@code 8 × bytes / milliseconds} kbit/s. The runner reads the client-side trace; pacelab's tap is on the server's
 * side of the emulated link, so the span misses the last packet's queueing and serialisation on the link (at most the
 * 25-packet queue, 30 ms at 10 Mbit/s, of a transfer of about 8.4 s).
 *
 * @param bytes   the file's size
 * @param firstNs capture time of the server's first 1-RTT packet
 * @param lastNs  capture time of its last
 */
public record Goodput(long bytes, long firstNs, long lastNs) {
    /** The repetition's goodput: bits per millisecond, i.e. kbit/s (the runner's kbps). */
    public double kbps() {
        return 8.0 * bytes / ((lastNs - firstNs) / 1e6);
    }

    public double seconds() {
        return (lastNs - firstNs) / 1e9;
    }

    /** A repetition's check and, when it succeeded, its goodput. */
    public record Checked(CheckResult result, Goodput goodput) {
    }

    /** The runner's check of one repetition of {@code run}, whose case serves one file of {@code bytes}. */
    static Checked check(CaseRun run, long bytes) throws IOException, InterruptedException {
        int handshakes = InteropCases.handshakes(run.trace());
        if (handshakes != 1) {
            return new Checked(CheckResult.failed("expected exactly 1 handshake, got " + handshakes), null);
        }
        String problem = InteropCases.versionAndFiles(run);
        if (problem != null) {
            return new Checked(CheckResult.failed(problem), null);
        }
        List<QuicPacket> oneRtt = run.trace().oneRtt(Direction.FROM_SERVER);
        if (oneRtt.isEmpty() || oneRtt.getLast().datagram().timeNs() == oneRtt.getFirst().datagram().timeNs()) {
            return new Checked(CheckResult.failed("the server's 1-RTT packets span no time in the trace"), null);
        }
        Goodput g = new Goodput(bytes, oneRtt.getFirst().datagram().timeNs(), oneRtt.getLast().datagram().timeNs());
        return new Checked(CheckResult.succeeded(String.format(Locale.ROOT, "%.0f kbps: %d bytes in %.3f s from the server's "
                + "first to its last 1-RTT packet, file intact", g.kbps(), bytes, g.seconds())), g);
    }
}
