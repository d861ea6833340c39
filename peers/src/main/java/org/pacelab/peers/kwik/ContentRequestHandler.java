package org.pacelab.peers.kwik;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

import org.pacelab.quic.content.Body;
import org.pacelab.quic.content.Content;
import org.pacelab.quic.content.ContentSource;
import org.pacelab.quic.content.ServedRequest;

import tech.kwik.flupke.server.HttpRequestHandler;
import tech.kwik.flupke.server.HttpServerRequest;
import tech.kwik.flupke.server.HttpServerResponse;

/**
 * Flupke's request handler over a {@link ContentSource}: GET and HEAD of {@code /bytes/N} and files; refusals
 * (400/404/500) and other methods (405) get a one-sentence text body. Runs on Flupke's request threads.
 */
final class ContentRequestHandler implements HttpRequestHandler {
    private static final int CHUNK = 64 * 1024;

    private final ContentSource content;
    private final Consumer<ServedRequest> log;

    ContentRequestHandler(ContentSource content, Consumer<ServedRequest> log) {
        this.content = content;
        this.log = log;
    }

    @Override
    public void handleRequest(HttpServerRequest request, HttpServerResponse response) throws IOException {
        String method = request.method();
        if (!"GET".equals(method) && !"HEAD".equals(method)) {
            response.addHeader("allow", "GET, HEAD");
            refuse(request, response, 405, "method " + method + " is not served; valid: GET, HEAD");
            return;
        }
        switch (content.open(request.path())) {
            case Content.Refused r -> refuse(request, response, r.status(), r.reason());
            case Content.Found f -> send(request, response, f.body(), "HEAD".equals(method));
        }
    }

    private void send(HttpServerRequest request, HttpServerResponse response, Body body, boolean head) throws IOException {
        long sent = 0;
        String error = null;
        try (body) {
            response.setStatus(200);
            response.addHeader("content-length", Long.toString(body.length()));
            OutputStream out = response.getOutputStream();
            if (!head) {
                ByteBuffer chunk = ByteBuffer.allocate(CHUNK);
                while (sent < body.length()) {
                    chunk.clear();
                    int n = body.read(chunk);
                    if (n <= 0) {
                        throw new IOException(request.path() + ": the body ended after " + sent + " of " + body.length() + " bytes");
                    }
                    out.write(chunk.array(), 0, n);
                    sent += n;
                }
            }
            out.close();
        } catch (IOException e) {
            error = e.getMessage();
            throw e;
        } finally {
            log.accept(new ServedRequest(-1, request.method(), request.path(), 200, sent, error));
        }
    }

    private void refuse(HttpServerRequest request, HttpServerResponse response, int status, String reason) throws IOException {
        response.setStatus(status);
        response.addHeader("content-type", "text/plain");
        byte[] text = (reason + "\n").getBytes(StandardCharsets.UTF_8);
        try (OutputStream out = response.getOutputStream()) {
            out.write(text);
        }
        log.accept(new ServedRequest(-1, request.method(), request.path(), status, text.length, null));
    }
}
