package org.pacelab.quic.conn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.app.ApplicationHandler;
import org.pacelab.quic.app.StreamTransport;
import org.pacelab.quic.content.DownloadListener;
import org.pacelab.quic.content.DownloadRequest;
import org.pacelab.quic.content.DownloadResult;
import org.pacelab.quic.content.DownloadSink;
import org.pacelab.quic.content.SyntheticContent;
import org.pacelab.quic.hq.HqClientHandler;
import org.pacelab.quic.hq.HqServerHandler;
import org.pacelab.quic.tls.TlsConfig;

/**
 * A client waiting for a response keeps its path alive (RFC 9000 §10.1.2, {@link ResponseKeepAlive}): issue 16's
 * rebind-port deadlock with aioquic's and quic-go's servers, reproduced on the virtual link.
 */
class ResponseKeepAliveTest {
    private static final long SIZE = 3_000_000;

    /**
     * Mid-download, at a moment the client has acknowledged everything it received (so it has nothing to send), the
     * NAT gives it a new port and forgets the old one: the server's packets on their way and all it sends afterwards,
     * its PTO probes included, go to the forgotten address and are lost. Without a packet from the client the server
     * never learns the new address and both wait for the idle timeout. The client's PING after a PTO of silence is
     * that packet: the server follows it, validates the path and the download completes.
     */
    @Test
    void aSilentDownloadingClientWhoseNatForgotItsPortProbesAndTheDownloadCompletes() throws Exception {
        Download d = new Download();
        ConnectionPair pair = d.pair(44);
        pair.useEndpoint(false);
        pair.natForgetsOldAddress = true;
        pair.start();
        assertTrue(pair.runUntil(() -> pair.server != null && pair.server.isHandshakeConfirmed()
                && pair.server.counters().get("packets_sent") > 300 && pair.clientLastSent >= pair.clientLastReceived,
                20_000_000_000L));
        assertEquals(0L, pair.client.counters().get("keep_alive_probes"));
        ServerEndpoint.Entry entry = pair.endpoint.connections().iterator().next();

        InetSocketAddress rebound = new InetSocketAddress("192.0.2.1", 6000);
        pair.clientAddress = rebound;
        boolean done = pair.runUntil(() -> !d.results.isEmpty(), 60_000_000_000L);
        assertTrue(done && d.results.get(0).succeeded(), "download stalled at " + d.counted.received() + " bytes: client "
                + pair.client.counters() + ", server " + pair.server.counters() + ", " + d.results);
        assertEquals(SIZE, d.counted.received());
        assertTrue(pair.datagramsToOldAddress > 0, "no server datagram went to the forgotten address");
        assertTrue(pair.client.counters().get("keep_alive_probes") >= 1, pair.client.counters().toString());
        assertEquals(rebound, entry.peer());
        assertEquals(1L, pair.server.counters().get("path_validations_succeeded"), pair.server.counters().toString());
    }

    /** Without a rebinding a download needs no keep-alive probe: the server's data keeps arriving. */
    @Test
    void anUndisturbedDownloadSendsNoProbe() throws Exception {
        Download d = new Download();
        ConnectionPair pair = d.pair(45);
        pair.start();
        assertTrue(pair.runUntil(() -> !d.results.isEmpty(), 60_000_000_000L));
        assertTrue(d.results.get(0).succeeded(), String.valueOf(d.results));
        assertEquals(0L, pair.client.counters().get("keep_alive_probes"));
    }

    /**
     * A server that acknowledges a request but never answers: the client probes after 1, 2, 4 … PTOs of silence (each
     * PING acknowledged), stops after {@link ResponseKeepAlive#MAX_PROBES} in a row, and the idle timeout then ends the
     * connection. A client with no request outstanding never probes.
     */
    @Test
    void probesBackOffAndStopSoTheIdleTimeoutStillEndsAnUnansweredRequest() throws Exception {
        SilentServer server = new SilentServer();
        RequestClient client = new RequestClient(true);
        ConnectionPair pair = new ConnectionPair(client, server, List.of("hq-interop"), TlsConfig.ALL_SUITES, 10_000_000L, 46);
        pair.start();
        assertTrue(pair.runUntil(() -> pair.client.isClosed(), 600_000_000_000L));
        assertEquals("idle timeout", pair.client.closeReason());
        assertEquals((long) ResponseKeepAlive.MAX_PROBES, pair.client.counters().get("keep_alive_probes"));
        assertTrue(server.bytes > 0);

        RequestClient idle = new RequestClient(false);
        ConnectionPair quiet = new ConnectionPair(idle, new SilentServer(), List.of("hq-interop"), TlsConfig.ALL_SUITES,
                10_000_000L, 47);
        quiet.start();
        assertTrue(quiet.runUntil(() -> quiet.client.isClosed(), 600_000_000_000L));
        assertTrue(idle.connected);
        assertEquals(0L, quiet.client.counters().get("keep_alive_probes"));
    }

    /** An hq-interop download of {@link #SIZE} bytes over a 10 ms one-way virtual link. */
    private static final class Download {
        final CountingDownloads counted = new CountingDownloads();
        final List<DownloadResult> results = counted.results;

        ConnectionPair pair(long seed) {
            DownloadSink sink = counted.sink();
            DownloadListener listener = counted.listener();
            ConnectionPair[] holder = new ConnectionPair[1];
            ApplicationHandler client = new HqClientHandler(List.of(new DownloadRequest("localhost", "/bytes/" + SIZE)),
                    sink, listener, () -> holder[0].now);
            holder[0] = new ConnectionPair(client, new HqServerHandler(SyntheticContent.only()), List.of("hq-interop"),
                    TlsConfig.ALL_SUITES, 10_000_000L, seed);
            return holder[0];
        }
    }

    /** Reads whatever arrives and never writes. */
    private static final class SilentServer implements ApplicationHandler {
        StreamTransport t;
        long bytes;

        @Override public void onConnected(StreamTransport transport) { t = transport; }

        @Override
        public void onStreamReadable(long id) {
            ByteBuffer b = ByteBuffer.allocate(1024);
            int n;
            while ((n = t.read(id, b.clear())) > 0) {
                bytes += n;
            }
        }
    }

    /** Sends a request (without ending its stream, so a response could follow) or, if {@code request} is false, nothing. */
    private static final class RequestClient implements ApplicationHandler {
        private final boolean request;
        boolean connected;

        RequestClient(boolean request) { this.request = request; }

        @Override
        public void onConnected(StreamTransport t) {
            connected = true;
            if (request) {
                t.write(t.openStream(true), ByteBuffer.wrap("GET /never\r\n".getBytes()), false);
            }
        }

        @Override public void onStreamReadable(long id) { }
    }
}
