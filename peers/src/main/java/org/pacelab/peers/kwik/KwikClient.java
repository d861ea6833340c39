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
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
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

import tech.kwik.agent15.TlsConstants;
import tech.kwik.core.QuicClientConnection;
import tech.kwik.core.QuicConnection;
import tech.kwik.core.QuicSessionTicket;
import tech.kwik.core.QuicStream;
import tech.kwik.core.impl.QuicClientConnectionImpl;
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
        return download(server, tls, requests, sink, options, KwikFeatures.NONE, timeoutNanos);
    }

    /** As {@link #download(InetSocketAddress, ClientTls, List, DownloadSink, KwikOptions, long)}, with {@link KwikFeatures}. */
    public static QuicClient.Outcome download(InetSocketAddress server, ClientTls tls, List<DownloadRequest> requests,
                                              DownloadSink sink, KwikOptions options, KwikFeatures features,
                                              long timeoutNanos) throws IOException {
        if (features.zeroRtt() && !"hq-interop".equals(tls.alpn())) {
            throw new IllegalArgumentException("--zero-rtt sends hq-interop requests as early data; it needs --alpn hq-interop");
        }
        // checked before Kwik reads it: Kwik allocates its length fields as they stand
        byte[] ticket = features.sessionTicket() != null ? KwikTicketFile.read(features.sessionTicket()) : null;
        if (features.zeroRtt() && ticket == null) {
            throw new IOException("no session ticket in " + features.sessionTicket() + " (the earlier connection got none), so "
                    + "there is no 0-RTT to send");
        }
        long start = System.nanoTime();
        KwikLogFile log = options.log() == null ? null : KwikLogFile.open(options.log(), "pacelab kwik-client: connection to "
                + hostLiteral(server) + ":" + server.getPort() + " at " + java.time.Instant.now() + ", " + requests.size()
                + " request(s), ALPN " + tls.alpn());
        try {
            return download(server, tls, requests, sink, options, features, ticket, timeoutNanos, start,
                    log != null ? log : KwikServer.logger(options));
        } finally {
            if (log != null) {
                log.close();
            }
        }
    }

    private static QuicClient.Outcome download(InetSocketAddress server, ClientTls tls, List<DownloadRequest> requests,
                                               DownloadSink sink, KwikOptions options, KwikFeatures features, byte[] ticket,
                                               long timeoutNanos, long start, tech.kwik.core.log.Logger logger)
            throws IOException {
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
        if (ticket != null) {
            try {
                b.sessionTicket(ticket);
            } catch (RuntimeException e) {
                // KwikTicketFile.read checked every length; this is what else Kwik's reader may refuse
                throw new IllegalArgumentException("--session-ticket " + features.sessionTicket() + " is not a Kwik session "
                        + "ticket: Kwik cannot read it (" + e + "); " + KwikTicketFile.VALID, e);
            }
        }
        KeyLog keys = options.keyLog() == null ? null : KeyLog.create(options.keyLog(), logger);
        if (keys != null) {
            b.secrets(keys.secrets);
        }
        try {
            return connect(b, tls, requests, sink, options, features, timeoutNanos, start, deadline, logger, keys);
        } finally {
            if (keys != null) {
                keys.close();
            }
        }
    }

    /**
     * The key log of one connection. Kwik empties its secrets file when a connection starts (ConnectionSecrets:
     * deleteIfExists, createFile), so each connection writes its own file, appended to the key log: resumption's two
     * connections (two processes) and --connection-per-url's keep every connection's secrets. The append happens as
     * soon as connect() returns (the handshake and 1-RTT secrets are known then), so the keys are there while the
     * transfer runs and survive a killed process; whatever Kwik wrote after that is appended when the connection ends.
     * A failed append is a warning: it does not change the outcome of the downloads.
     */
    static final class KeyLog {
        private final Path keyLog;
        private final Path secrets;
        private final tech.kwik.core.log.Logger logger;
        private long appended;
        private boolean failed;

        private KeyLog(Path keyLog, Path secrets, tech.kwik.core.log.Logger logger) {
            this.keyLog = keyLog;
            this.secrets = secrets;
            this.logger = logger;
        }

        static KeyLog create(Path keyLog, tech.kwik.core.log.Logger logger) throws IOException {
            Path dir = keyLog.toAbsolutePath().getParent();
            try {
                return new KeyLog(keyLog, Files.createTempFile(dir, ".kwik-secrets-", ".log"), logger);
            } catch (IOException e) {
                throw new IOException("cannot write the key log " + keyLog + ": no file can be created in " + dir + " ("
                        + reason(e) + ")", e);
            }
        }

        /** Appends to the key log what Kwik wrote since the last append; a failure is a warning, and the last try. */
        void append() {
            if (failed) {
                return;
            }
            try {
                byte[] all = Files.readAllBytes(secrets);
                if (all.length > appended) {
                    Files.write(keyLog, java.util.Arrays.copyOfRange(all, (int) appended, all.length),
                            StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                    appended = all.length;
                }
            } catch (IOException e) {
                failed = true;
                warn("the TLS secrets could not be appended to the key log " + keyLog + " (" + reason(e)
                        + "); the downloads go on without them");
            }
        }

        /** Appends what is left and deletes the connection's secrets file. */
        void close() {
            append();
            try {
                Files.deleteIfExists(secrets);
            } catch (IOException e) {
                warn("the connection's secrets file " + secrets + " could not be deleted (" + reason(e) + ")");
            }
        }

        private void warn(String sentence) {
            System.err.println("pacelab kwik-client: warning: " + sentence);
            logger.warn("pacelab kwik-client: " + sentence);
        }

        private static String reason(IOException e) {
            if (e instanceof java.nio.file.FileSystemException fs) {
                String why = fs instanceof java.nio.file.AccessDeniedException ? "permission denied"
                        : fs instanceof java.nio.file.NoSuchFileException ? "no such file or directory"
                        : fs.getReason() != null ? fs.getReason() : e.getClass().getSimpleName();
                return fs.getFile() != null ? fs.getFile() + ": " + why : why;
            }
            return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
        }
    }

    private static QuicClient.Outcome connect(QuicClientConnection.Builder b, ClientTls tls, List<DownloadRequest> requests,
                                              DownloadSink sink, KwikOptions options, KwikFeatures features,
                                              long timeoutNanos, long start, long deadline,
                                              tech.kwik.core.log.Logger logger, KeyLog keys) throws IOException {
        for (TlsConstants.CipherSuite c : features.kwikCipherSuites()) {
            b.cipherSuite(c); // only these are offered
        }
        if (features.negotiateV2()) {
            b.initialVersion(QuicConnection.QuicVersion.V1).preferredVersion(QuicConnection.QuicVersion.V2);
        }
        if (tls.insecure()) {
            b.noServerCertificateCheck();
        } else if (tls.caFile() != null) {
            b.customTrustManager(Certificates.trustManager(tls.caFile()));
        }
        QuicClientConnection connection = b.build();
        List<QuicStream> early = null;
        try {
            if (features.zeroRtt()) {
                List<QuicClientConnection.StreamEarlyData> data = new ArrayList<>();
                for (DownloadRequest r : requests) {
                    data.add(new QuicClientConnection.StreamEarlyData(hqRequest(r), true));
                }
                early = connection.connect(data);
            } else {
                connection.connect();
            }
        } catch (IOException | RuntimeException e) {
            if (keys != null) {
                keys.append(); // the handshake secrets, for a look at the failed handshake
            }
            // Kwik's TLS refuses some starts with an IllegalStateException (e.g. a ticket of a cipher no longer offered)
            logger.error("pacelab kwik-client: the handshake failed", e);
            return new QuicClient.Outcome(List.of(), start, System.nanoTime(), -1, "handshake failed: " + e.getMessage(),
                    false, -1);
        }
        long handshake = System.nanoTime() - start;
        if (keys != null) {
            keys.append(); // now, not at the end: the keys are in the key log during the transfer, and if it is killed
        }
        boolean timedOut = false;
        List<DownloadResult> results = new ArrayList<>();
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            HttpClient h3 = "h3".equals(tls.alpn()) ? new Http3SingleConnectionClient(connection,
                    Duration.ofNanos(timeoutNanos), options.streamWindow()) : null;
            List<Future<DownloadResult>> running = new ArrayList<>();
            KeyUpdate keyUpdate = features.keyUpdate() ? new KeyUpdate(connection) : null;
            for (int i = 0; i < requests.size(); i++) {
                DownloadRequest r = requests.get(i);
                QuicStream stream = early != null && i < early.size() ? early.get(i) : null;
                running.add(threads.submit(() -> h3 != null ? getH3(h3, r, sink, keyUpdate)
                        : stream != null ? readHq(stream, r, sink, keyUpdate, System.nanoTime())
                        : getHq(connection, r, sink, keyUpdate)));
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
            if (features.sessionTicket() != null) {
                saveTicket(connection, features.sessionTicket(), deadline, logger);
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

    private static DownloadResult getH3(HttpClient client, DownloadRequest r, DownloadSink sink, KeyUpdate keyUpdate)
            throws Exception {
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
            long n = copy(in, sink.open(r), times, keyUpdate);
            return new DownloadResult(r, -1, status, n, sent, first, times[1], null);
        }
    }

    private static DownloadResult getHq(QuicClientConnection connection, DownloadRequest r, DownloadSink sink, KeyUpdate keyUpdate)
            throws IOException {
        QuicStream stream = connection.createStream(true);
        long sent = System.nanoTime();
        try (OutputStream out = stream.getOutputStream()) {
            out.write(hqRequest(r));
        }
        return readHq(stream, r, sink, keyUpdate, sent);
    }

    /** The hq-interop request line for a download. */
    static byte[] hqRequest(DownloadRequest r) {
        return ("GET " + r.target() + "\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    /** Reads the response of a stream whose request was sent (in 1-RTT, or in 0-RTT by {@code connect}). */
    private static DownloadResult readHq(QuicStream stream, DownloadRequest r, DownloadSink sink, KeyUpdate keyUpdate, long sent)
            throws IOException {
        long[] times = new long[2];
        try (InputStream in = stream.getInputStream()) {
            long n = copy(in, sink.open(r), times, keyUpdate);
            return new DownloadResult(r, stream.getStreamId(), 0, n, sent, times[0] > 0 ? times[0] : -1, times[1], null);
        }
    }

    /**
     * Waits (until the deadline, at most 5 s) for a session ticket from the server and writes the newest one to the file,
     * replacing it; without one the file is left as it was and the log says so.
     */
    private static void saveTicket(QuicClientConnection connection, Path file, long deadline, tech.kwik.core.log.Logger logger)
            throws IOException {
        long until = Math.min(deadline, System.nanoTime() + 5_000_000_000L);
        List<QuicSessionTicket> tickets = connection.getNewSessionTickets();
        while (tickets.isEmpty() && System.nanoTime() < until) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            tickets = connection.getNewSessionTickets();
        }
        if (tickets.isEmpty()) {
            logger.warn("pacelab kwik-client: the server sent no session ticket; " + file + " not written");
            return;
        }
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.write(tmp, tickets.getLast().serialize());
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * The client's key update: once {@link KwikFeatures#KEY_UPDATE_AFTER} response bytes arrived, one call of Kwik's
     * {@code updateKeys()} (public on its client connection class, not on the interface).
     */
    static final class KeyUpdate {
        private final QuicClientConnection connection;
        private final java.util.concurrent.atomic.AtomicLong received = new java.util.concurrent.atomic.AtomicLong();
        private final java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();

        KeyUpdate(QuicClientConnection connection) {
            this.connection = connection;
        }

        void received(int n) {
            if (received.addAndGet(n) >= KwikFeatures.KEY_UPDATE_AFTER && done.compareAndSet(false, true)) {
                ((QuicClientConnectionImpl) connection).updateKeys();
            }
        }
    }

    /**
     * Copies a body into an output, committing it at the end and aborting it on failure; returns the byte count
     * and sets {@code times} to the first and last byte's arrival.
     */
    private static long copy(InputStream in, DownloadOutput output, long[] times, KeyUpdate keyUpdate) throws IOException {
        byte[] buf = new byte[CHUNK];
        long total = 0;
        try {
            for (int n; (n = in.read(buf)) >= 0; ) {
                if (total == 0 && n > 0) {
                    times[0] = System.nanoTime();
                }
                output.write(ByteBuffer.wrap(buf, 0, n));
                total += n;
                if (keyUpdate != null) {
                    keyUpdate.received(n);
                }
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
