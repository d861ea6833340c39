package org.pacelab.quic.app;

import java.util.Map;
import java.util.function.Supplier;

/**
 * An {@link ApplicationHandler} for a server that speaks several application protocols: when the
 * handshake completes it creates the handler for the negotiated ALPN protocol and passes every later
 * callback to it. A connection whose protocol has no handler is closed with application error 0x0 and a
 * reason naming the protocol (the TLS layer normally prevents this by offering only these protocols).
 */
public final class AlpnSelectingHandler implements ApplicationHandler {
    private final Map<String, Supplier<? extends ApplicationHandler>> handlers;
    private ApplicationHandler selected;

    /** @param handlers a handler factory per ALPN protocol identifier, e.g. {@code "h3"}, {@code "hq-interop"} */
    public AlpnSelectingHandler(Map<String, Supplier<? extends ApplicationHandler>> handlers) {
        this.handlers = Map.copyOf(handlers);
    }

    @Override
    public void onConnected(StreamTransport transport) {
        Supplier<? extends ApplicationHandler> factory = handlers.get(transport.applicationProtocol());
        if (factory == null) {
            transport.close(0x0, "no application for ALPN protocol '" + transport.applicationProtocol()
                    + "'; offered are " + handlers.keySet());
            return;
        }
        selected = factory.get();
        selected.onConnected(transport);
    }

    /** The handler chosen for the negotiated protocol, or null before the handshake completed. */
    public ApplicationHandler selected() {
        return selected;
    }

    @Override
    public void onPeerStreamOpened(long streamId) {
        if (selected != null) {
            selected.onPeerStreamOpened(streamId);
        }
    }

    @Override
    public void onStreamReadable(long streamId) {
        if (selected != null) {
            selected.onStreamReadable(streamId);
        }
    }

    @Override
    public void onStreamWritable(long streamId) {
        if (selected != null) {
            selected.onStreamWritable(streamId);
        }
    }

    @Override
    public void onStreamComplete(long streamId) {
        if (selected != null) {
            selected.onStreamComplete(streamId);
        }
    }

    @Override
    public void onStreamReset(long streamId, long applicationErrorCode) {
        if (selected != null) {
            selected.onStreamReset(streamId, applicationErrorCode);
        }
    }

    @Override
    public void onStopSending(long streamId, long applicationErrorCode) {
        if (selected != null) {
            selected.onStopSending(streamId, applicationErrorCode);
        }
    }

    @Override
    public void onStreamsAvailable() {
        if (selected != null) {
            selected.onStreamsAvailable();
        }
    }

    @Override
    public void onClosed(long errorCode, boolean application, String reason) {
        if (selected != null) {
            selected.onClosed(errorCode, application, reason);
        }
    }
}
