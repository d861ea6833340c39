package org.pacelab.peers.kwik;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;

import org.pacelab.quic.content.Body;
import org.pacelab.quic.content.Content;
import org.pacelab.quic.content.ContentSource;
import org.pacelab.quic.content.ServedRequest;
import org.pacelab.quic.hq.HqError;
import org.pacelab.quic.hq.HqRequestLine;

import tech.kwik.core.QuicConnection;
import tech.kwik.core.QuicStream;
import tech.kwik.core.server.ApplicationProtocolConnection;
import tech.kwik.core.server.ApplicationProtocolConnectionFactory;

/**
 * hq-interop (HTTP/0.9 over QUIC) on Kwik's server: each client bidirectional stream carries {@code GET /path},
 * answered with the body and FIN, or RESET_STREAM with pacelab's {@link HqError} code. One virtual thread per
 * request stream (Kwik's streams are blocking).
 */
final class HqInteropProtocol implements ApplicationProtocolConnectionFactory {
    static final String ALPN = "hq-interop";
    private static final int CHUNK = 64 * 1024;

    private final ContentSource content;
    private final Consumer<ServedRequest> log;
    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();

    private final SendRequestWatchdog watchdog;

    HqInteropProtocol(ContentSource content, Consumer<ServedRequest> log, SendRequestWatchdog watchdog) {
        this.content = content;
        this.log = log;
        this.watchdog = watchdog;
    }

    @Override
    public ApplicationProtocolConnection createConnection(String protocol, QuicConnection connection) {
        return new ApplicationProtocolConnection() {
            @Override
            public void acceptPeerInitiatedStream(QuicStream stream) {
                threads.execute(() -> {
                    watchdog.watch(connection, stream);
                    try {
                        serve(stream);
                    } finally {
                        watchdog.unwatch(stream);
                    }
                });
            }
        };
    }

    @Override
    public int maxConcurrentPeerInitiatedBidirectionalStreams() {
        return 100;
    }

    private void serve(QuicStream stream) {
        String path;
        try {
            path = HqRequestLine.parsePath(readLine(stream.getInputStream()));
        } catch (IOException | IllegalArgumentException e) {
            stream.resetStream(HqError.BAD_REQUEST.code);
            log.accept(new ServedRequest(stream.getStreamId(), "GET", "", 400, 0, e.getMessage()));
            return;
        }
        switch (content.open(path)) {
            case Content.Refused r -> {
                stream.resetStream(HqError.forStatus(r.status()).code);
                log.accept(new ServedRequest(stream.getStreamId(), "GET", path, r.status(), 0, r.reason()));
            }
            case Content.Found f -> send(stream, path, f.body());
        }
        readToEnd(stream.getInputStream());
    }

    /**
     * Reads the request's stream to its FIN. Kwik 0.10.9 counts a peer's bidirectional stream as closed, and gives
     * the peer a new one with MAX_STREAMS (RFC 9000 §4.6), only when both its sides are closed, and its receiving
     * side closes only when the application has read it to the end ({@code StreamInputStreamImpl.read} returning
     * -1), closed it or the peer reset it; a request read only up to its line's LF keeps the stream open for good.
     * Without this the client's stream limit stayed at the 100 of {@link #maxConcurrentPeerInitiatedBidirectionalStreams}
     * and the interop runner's multiplexing (1999 streams on one connection) stalled after 100 files with every
     * hq-interop client (issue 16). Done after the response, so that a client that has not yet sent its FIN still
     * gets its answer; what follows the request line is discarded.
     */
    private static void readToEnd(InputStream in) {
        byte[] discard = new byte[256];
        try {
            while (in.read(discard) >= 0) {
                // discard
            }
        } catch (IOException e) {
            // The stream was reset or the connection ended: Kwik has closed the receiving side itself.
        }
    }

    private void send(QuicStream stream, String path, Body body) {
        long sent = 0;
        String error = null;
        try (body; OutputStream out = stream.getOutputStream()) {
            ByteBuffer chunk = ByteBuffer.allocate(CHUNK);
            while (sent < body.length()) {
                chunk.clear();
                int n = body.read(chunk);
                if (n <= 0) {
                    throw new IOException(path + ": the body ended after " + sent + " of " + body.length() + " bytes");
                }
                out.write(chunk.array(), 0, n);
                sent += n;
            }
        } catch (IOException e) {
            error = e.getMessage();
            stream.resetStream(HqError.INTERNAL_ERROR.code);
        }
        log.accept(new ServedRequest(stream.getStreamId(), "GET", path, 200, sent, error));
    }

    /** The request line up to LF (without it), at most {@link HqRequestLine#MAX_LENGTH} bytes. */
    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b; (b = in.read()) >= 0 && b != '\n'; ) {
            if (line.size() >= HqRequestLine.MAX_LENGTH) {
                throw new IOException("the request line is longer than " + HqRequestLine.MAX_LENGTH + " bytes");
            }
            line.write(b);
        }
        return line.toString(StandardCharsets.US_ASCII);
    }
}
