package org.pacelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.pacelab.io.runtime.QuicClient;
import org.pacelab.quic.content.DownloadRequest;
import org.pacelab.quic.content.DownloadResult;

/** {@code --connection-per-url}: a connection per request, in order, stopping at the first that fails (no network). */
class ConnectionPerUrlTest {
    private static final List<DownloadRequest> REQUESTS = List.of(request("a"), request("b"), request("c"));

    private static DownloadRequest request(String name) {
        return DownloadRequest.of(URI.create("https://127.0.0.1:4433/" + name));
    }

    private static QuicClient.Outcome ok(DownloadRequest r) {
        return new QuicClient.Outcome(List.of(new DownloadResult(r, 0, 200, 10, 1, 2, 3, null)), 0, 4, 0, "", false, 1_000_000);
    }

    private final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    private final ByteArrayOutputStream progressBytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(outBytes, true, StandardCharsets.UTF_8);
    private final PrintStream progress = new PrintStream(progressBytes, true, StandardCharsets.UTF_8);

    private String out() {
        return outBytes.toString(StandardCharsets.UTF_8);
    }

    private List<String> progress() {
        return progressBytes.toString(StandardCharsets.UTF_8).lines().toList();
    }

    @Test
    void eachRequestGetsItsOwnConnectionInOrder() throws IOException {
        List<List<DownloadRequest>> calls = new ArrayList<>();
        int code = ConnectionPerUrl.run(REQUESTS, rs -> {
            calls.add(rs);
            return ok(rs.getFirst());
        }, out, progress);
        assertEquals(0, code);
        assertEquals(REQUESTS.stream().map(List::of).toList(), calls);
        assertTrue(out().contains("connection 3 of 3: handshake 1.000 ms"), out());
        assertTrue(out().contains("/c: status 200, 10 bytes"), out());
        assertEquals(List.of("connection 1 of 3: connecting", "connection 2 of 3: connecting", "connection 3 of 3: connecting"),
                progress());
    }

    @Test
    void theFirstFailedConnectionEndsTheRun() throws IOException {
        List<List<DownloadRequest>> calls = new ArrayList<>();
        int code = ConnectionPerUrl.run(REQUESTS, rs -> {
            calls.add(rs);
            return calls.size() == 2 ? new QuicClient.Outcome(List.of(), 0, 4, -1, "no handshake before the timeout", true, -1)
                    : ok(rs.getFirst());
        }, out, progress);
        assertEquals(1, code);
        assertEquals(2, calls.size());
        assertTrue(out().contains("connection 2 of 3: no handshake"), out());
        // the last line on stderr names the connection: what the interop harness reports of a client that failed
        assertEquals("connection 2 of 3 failed: timed out; the remaining 1 not attempted", progress().getLast());
    }

    @Test
    void aConnectionThatCannotStartIsNamed() {
        IOException e = assertThrows(IOException.class, () -> ConnectionPerUrl.run(REQUESTS, rs -> {
            throw new IOException("cannot bind a UDP socket: no");
        }, out, progress));
        assertEquals("connection 1 of 3: cannot bind a UDP socket: no", e.getMessage());
    }
}
