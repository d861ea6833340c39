package org.pacelab.sim.output;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.pacelab.analysis.io.AtomicFiles;
import org.pacelab.quic.tls.KeyLogSink;

/**
 * Collects the TLS secrets of a simulated run as an NSS key log (SSLKEYLOGFILE) for the analyzer and Wireshark,
 * and remembers the client randoms seen, so the simulation can check that they came from its seeded stream.
 */
public final class KeyLogCollector implements KeyLogSink {
    private final StringBuilder text = new StringBuilder();
    private final List<byte[]> clientRandoms = new ArrayList<>();

    @Override
    public synchronized void log(String label, byte[] clientRandom, byte[] secret) {
        text.append(KeyLogSink.line(label, clientRandom, secret)).append('\n');
        for (byte[] r : clientRandoms) {
            if (java.util.Arrays.equals(r, clientRandom)) {
                return;
            }
        }
        clientRandoms.add(clientRandom.clone());
    }

    /** Distinct client randoms of the handshakes logged. */
    public synchronized List<byte[]> clientRandoms() {
        return List.copyOf(clientRandoms);
    }

    /** Writes the key log atomically. */
    public synchronized void write(Path file) throws IOException {
        AtomicFiles.writeString(file, text.toString());
    }
}
