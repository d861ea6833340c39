package org.pacelab.quic.conn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.app.ApplicationHandler;
import org.pacelab.quic.app.StreamTransport;
import org.pacelab.quic.tls.TlsConfig;

/**
 * The application hears nothing of a connection after {@code onClosed}: stream data that arrived in the same burst as
 * the connection's end (the peer's CONNECTION_CLOSE here) is reported before it, not after.
 */
class ClosedConnectionEventsTest {

    /** An echo client that records the order of its callbacks. */
    static final class RecordingClient extends EchoApps.Client {
        final List<String> events = new ArrayList<>();

        RecordingClient(byte[] message) {
            super(message);
        }

        @Override
        public void onStreamReadable(long id) {
            events.add("readable");
            super.onStreamReadable(id);
        }

        @Override
        public void onClosed(long errorCode, boolean application, String reason) {
            events.add("closed");
            super.onClosed(errorCode, application, reason);
        }
    }

    @Test
    void streamDataBeforeThePeersCloseInOneBurstIsReportedBeforeOnClosedAndNothingAfter() throws Exception {
        byte[] msg = "ping".getBytes(StandardCharsets.US_ASCII);
        RecordingClient client = new RecordingClient(msg);
        EchoApps.Server server = new EchoApps.Server();
        ConnectionPair pair = new ConnectionPair(client, server, List.of("hq-interop"), TlsConfig.ALL_SUITES, 10_000_000L, 7);
        List<byte[]> held = new ArrayList<>();
        // once the server has read the request, its datagrams (the echo, then its CONNECTION_CLOSE) are held back
        pair.toClientFilter = d -> {
            if (!server.received.isEmpty()) {
                held.add(d);
                return null;
            }
            return d;
        };
        pair.start();
        assertTrue(pair.runUntil(() -> !held.isEmpty(), 5_000_000_000L), "the server did not answer");
        pair.server.close(0, "done");
        pair.flush();
        assertTrue(held.size() >= 2, "the echo and the close: " + held.size() + " datagrams");
        for (byte[] d : held) {
            pair.client.receiveInBurst(ByteBuffer.wrap(d), pair.now);
        }
        pair.client.endReceiveBurst();

        assertEquals(QuicConnection.State.DRAINING, pair.client.state());
        assertEquals("closed", client.events.getLast(), "events: " + client.events);
        assertEquals(1, client.events.stream().filter("closed"::equals).count(), "events: " + client.events);
        assertTrue(client.events.contains("readable"), "events: " + client.events);
        assertArrayEquals(msg, client.replies[0]);
    }

    @Test
    void nothingIsDeliveredAfterOnClosedEvenWhatItsCallbackQueues() {
        List<String> seen = new ArrayList<>();
        ApplicationHandler app = new ApplicationHandler() {
            @Override
            public void onConnected(StreamTransport transport) { }

            @Override
            public void onStreamReadable(long streamId) {
                seen.add("readable " + streamId);
            }
        };
        ApplicationEvents events = new ApplicationEvents(app);
        events.readable(4);
        events.add(() -> seen.add("opened 8"));
        events.close(() -> {
            seen.add("closed");
            events.readable(12);
            events.add(() -> seen.add("late"));
        });
        events.readable(8);
        events.deliver(id -> true);
        assertEquals(List.of("opened 8", "readable 4", "readable 8", "closed"), seen);
        events.readable(16);
        events.add(() -> seen.add("later"));
        events.deliver(id -> true);
        assertEquals(List.of("opened 8", "readable 4", "readable 8", "closed"), seen);
    }
}
