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
    private static final List<String> HANDSHAKE_SECRETS = List.of("CLIENT_HANDSHAKE_TRAFFIC_SECRET",
            "SERVER_HANDSHAKE_TRAFFIC_SECRET", "CLIENT_TRAFFIC_SECRET_0", "SERVER_TRAFFIC_SECRET_0");
    private final StringBuilder text = new StringBuilder();
    private final List<byte[]> clientRandoms = new ArrayList<>();
    private final java.util.Set<String> labels = new java.util.HashSet<>();
    private java.util.function.Consumer<String> onHandshakeSecrets;

    /**
     * Gives {@code listener} the key log's text once it holds a handshake's four secrets (both directions' handshake
     * and first application traffic secrets, RFC 9001 §5.1), once, on the logging thread.
     */
    public synchronized void onHandshakeSecrets(java.util.function.Consumer<String> listener) {
        onHandshakeSecrets = listener;
    }

    @Override
    public synchronized void log(String label, byte[] clientRandom, byte[] secret) {
        text.append(KeyLogSink.line(label, clientRandom, secret)).append('\n');
        if (onHandshakeSecrets != null && labels.add(label) && labels.containsAll(HANDSHAKE_SECRETS)) {
            java.util.function.Consumer<String> listener = onHandshakeSecrets;
            onHandshakeSecrets = null;
            listener.accept(text.toString());
        }
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
