package org.pacelab.peers.kwik;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.pacelab.io.runtime.QuicClient;
import org.pacelab.io.tls.Certificates;
import org.pacelab.peers.ClientTls;
import org.pacelab.quic.content.DownloadOutput;
import org.pacelab.quic.content.DownloadRequest;
import org.pacelab.quic.content.DownloadResult;
import org.pacelab.quic.content.DownloadSink;

import tech.kwik.core.QuicClientConnection;
import tech.kwik.core.QuicStream;
import tech.kwik.flupke.Http3SingleConnectionClient;

/**
 * The Kwik peer's client: one Kwik connection, requests over Flupke's HTTP/3 client (ALPN {@code h3}) or as
 * hq-interop {@code GET /path} lines, all concurrently (one virtual thread per request; Kwik's streams block).
 * NewReno, unpaced. Times in the results are System.nanoTime(): request sent = handed to Kwik, first byte =
 * response headers (h3) or first body byte (hq), last byte = end of the stream.
 */
public final class KwikClient {
    private static final int CHUNK = 64 * 1024;

    private KwikClient() {}

    public static QuicClient.Outcome download(InetSocketAddress server, ClientTls tls, List<DownloadRequest> requests,
                                              DownloadSink sink, KwikOptions options, long timeoutNanos) throws IOException {
        long start = System.nanoTime();
        KwikLogFile log = options.log() == null ? null : KwikLogFile.open(options.log(), "pacelab kwik-client: connection to "
                + hostLiteral(server) + ":" + server.getPort() + " at " + java.time.Instant.now() + ", " + requests.size()
                + " request(s), ALPN " + tls.alpn());
        try {
            return download(server, tls, requests, sink, options, timeoutNanos, start, log != null ? log : KwikServer.logger(options));
        } finally {
            if (log != null) {
                log.close();
            }
        }
    }

    private static QuicClient.Outcome download(InetSocketAddress server, ClientTls tls, List<DownloadRequest> requests,
                                               DownloadSink sink, KwikOptions options, long timeoutNanos, long start,
                                               tech.kwik.core.log.Logger logger) throws IOException {
        long deadline = start + timeoutNanos;
        QuicClientConnection.Builder b = QuicClientConnection.newBuilder()
                .uri(URI.create("//" + hostLiteral(server) + ":" + server.getPort()))
                .applicationProtocol(tls.alpn())
                .connectTimeout(Duration.ofNanos(Math.max(1_000_000, timeoutNanos)))
                .maxIdleTimeout(Duration.ofMillis(options.idleTimeoutMs()))
                .defaultStreamReceiveBufferSize(options.streamWindow())
                // HTTP/3 servers open a control and two QPACK streams (RFC 9114 §6.2).
                .maxOpenPeerInitiatedUnidirectionalStreams(10)
                .maxOpenPeerInitiatedBidirectionalStreams(0)
                .logger(logger);
        if (options.keyLog() != null) {
            b.secrets(options.keyLog());
        }
        if (tls.insecure()) {
            b.noServerCertificateCheck();
        } else if (tls.caFile() != null) {
            b.customTrustManager(Certificates.trustManager(tls.caFile()));
        }
        QuicClientConnection connection = b.build();
        try {
            connection.connect();
        } catch (IOException e) {
            logger.error("pacelab kwik-client: the handshake failed", e);
            return new QuicClient.Outcome(List.of(), start, System.nanoTime(), -1, "handshake failed: " + e.getMessage(),
                    false, -1);
        }
        long handshake = System.nanoTime() - start;
        boolean timedOut = false;
        List<DownloadResult> results = new ArrayList<>();
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            HttpClient h3 = "h3".equals(tls.alpn()) ? new Http3SingleConnectionClient(connection,
                    Duration.ofNanos(timeoutNanos), options.streamWindow()) : null;
            List<Future<DownloadResult>> running = new ArrayList<>();
            for (DownloadRequest r : requests) {
                running.add(threads.submit(() -> h3 != null ? getH3(h3, r, sink) : getHq(connection, r, sink)));
            }
            for (int i = 0; i < running.size(); i++) {
                try {
                    results.add(running.get(i).get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS));
                } catch (TimeoutException e) {
                    timedOut = true;
                    results.add(failed(requests.get(i), "not finished before the timeout"));
                } catch (java.util.concurrent.ExecutionException e) {
                    results.add(failed(requests.get(i), String.valueOf(e.getCause())));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    timedOut = true;
                    results.add(failed(requests.get(i), "interrupted"));
                }
            }
            if (timedOut) {
                running.forEach(f -> f.cancel(true));
            }
            // Closing the connection ends any download still blocked in a stream read.
            connection.close();
            threads.shutdownNow();
        }
        return new QuicClient.Outcome(List.copyOf(results), start, System.nanoTime(), 0,
                timedOut ? "client timeout" : "closed by us", timedOut, handshake);
    }

    private static String hostLiteral(InetSocketAddress a) {
        String h = a.getAddress().getHostAddress();
        return h.contains(":") ? "[" + h + "]" : h;
    }

    private static DownloadResult failed(DownloadRequest r, String why) {
        return new DownloadResult(r, -1, 0, 0, -1, -1, -1, r.target() + ": " + why);
    }

    private static DownloadResult getH3(HttpClient client, DownloadRequest r, DownloadSink sink) throws Exception {
        HttpRequest req = HttpRequest.newBuilder(URI.create("https://" + r.authority() + r.target())).GET().build();
        long sent = System.nanoTime();
        HttpResponse<InputStream> resp = client.send(req, HttpResponse.BodyHandlers.ofInputStream());
        long first = System.nanoTime();
        int status = resp.statusCode();
        try (InputStream in = resp.body()) {
            if (status / 100 != 2) {
                long n = in.transferTo(OutputStream.nullOutputStream());
                return new DownloadResult(r, -1, status, n, sent, first, System.nanoTime(),
                        r.target() + ": the server answered " + status);
            }
            long[] times = new long[2];
            long n = copy(in, sink.open(r), times);
            return new DownloadResult(r, -1, status, n, sent, first, times[1], null);
        }
    }

    private static DownloadResult getHq(QuicClientConnection connection, DownloadRequest r, DownloadSink sink) throws IOException {
        QuicStream stream = connection.createStream(true);
        long sent = System.nanoTime();
        try (OutputStream out = stream.getOutputStream()) {
            out.write(("GET " + r.target() + "\r\n").getBytes(StandardCharsets.US_ASCII));
        }
        long[] times = new long[2];
        try (InputStream in = stream.getInputStream()) {
            long n = copy(in, sink.open(r), times);
            return new DownloadResult(r, stream.getStreamId(), 0, n, sent, times[0] > 0 ? times[0] : -1, times[1], null);
        }
    }

    /**
     * Copies a body into an output, committing it at the end and aborting it on failure; returns the byte count
     * and sets {@code times} to the first and last byte's arrival.
     */
    private static long copy(InputStream in, DownloadOutput output, long[] times) throws IOException {
        byte[] buf = new byte[CHUNK];
        long total = 0;
        try {
            for (int n; (n = in.read(buf)) >= 0; ) {
                if (total == 0 && n > 0) {
                    times[0] = System.nanoTime();
                }
                output.write(ByteBuffer.wrap(buf, 0, n));
                total += n;
            }
            times[1] = System.nanoTime();
            output.commit();
            return total;
        } catch (IOException | RuntimeException e) {
            output.abort();
            throw e;
        }
    }
}
