package org.pacelab.peers.kwik;

import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;

import tech.kwik.core.QuicConnection;
import tech.kwik.core.QuicStream;
import tech.kwik.core.server.ApplicationProtocolConnection;
import tech.kwik.core.server.ApplicationProtocolConnectionFactory;
import tech.kwik.flupke.server.Http3ApplicationProtocolFactory;
import tech.kwik.flupke.server.HttpRequestHandler;

/**
 * Flupke's HTTP/3 server with each request stream under the {@link SendRequestWatchdog} while Flupke handles it.
 * Flupke hands every peer stream to its executor from inside {@code acceptPeerInitiatedStream}, on the calling
 * thread, so the executor learns the stream from a thread-local set just before.
 */
final class WatchedHttp3Protocol implements ApplicationProtocolConnectionFactory {
    private static final ThreadLocal<Accepting> ACCEPTING = new ThreadLocal<>();

    private record Accepting(QuicConnection connection, QuicStream stream) {}

    private final Http3ApplicationProtocolFactory flupke;
    private final ExecutorService threads;

    WatchedHttp3Protocol(HttpRequestHandler handler, SendRequestWatchdog watchdog) {
        ThreadFactory daemons = r -> {
            Thread t = new Thread(r, "flupke-request");
            t.setDaemon(true);
            return t;
        };
        this.threads = Executors.newCachedThreadPool(daemons);
        this.flupke = new Http3ApplicationProtocolFactory(handler, Map.of(), new java.util.concurrent.AbstractExecutorService() {
            @Override
            public void execute(Runnable task) {
                Accepting a = ACCEPTING.get();
                if (a == null) {
                    threads.execute(task);
                    return;
                }
                watchdog.watch(a.connection(), a.stream());
                threads.execute(() -> {
                    try {
                        task.run();
                    } finally {
                        watchdog.unwatch(a.stream());
                    }
                });
            }

            @Override
            public void shutdown() {
                threads.shutdown();
            }

            @Override
            public java.util.List<Runnable> shutdownNow() {
                return threads.shutdownNow();
            }

            @Override
            public boolean isShutdown() {
                return threads.isShutdown();
            }

            @Override
            public boolean isTerminated() {
                return threads.isTerminated();
            }

            @Override
            public boolean awaitTermination(long timeout, java.util.concurrent.TimeUnit unit) throws InterruptedException {
                return threads.awaitTermination(timeout, unit);
            }
        });
    }

    @Override
    public ApplicationProtocolConnection createConnection(String protocol, QuicConnection connection) {
        ApplicationProtocolConnection h3 = flupke.createConnection(protocol, connection);
        return new ApplicationProtocolConnection() {
            @Override
            public void acceptPeerInitiatedStream(QuicStream stream) {
                if (stream.isUnidirectional()) {
                    h3.acceptPeerInitiatedStream(stream);
                    return;
                }
                ACCEPTING.set(new Accepting(connection, stream));
                try {
                    h3.acceptPeerInitiatedStream(stream);
                } finally {
                    ACCEPTING.remove();
                }
            }
        };
    }

    @Override
    public int maxConcurrentPeerInitiatedUnidirectionalStreams() {
        return flupke.maxConcurrentPeerInitiatedUnidirectionalStreams();
    }

    @Override
    public long maxTotalPeerInitiatedUnidirectionalStreams() {
        return flupke.maxTotalPeerInitiatedUnidirectionalStreams();
    }

    @Override
    public int maxConcurrentPeerInitiatedBidirectionalStreams() {
        return flupke.maxConcurrentPeerInitiatedBidirectionalStreams();
    }

    @Override
    public long maxTotalPeerInitiatedBidirectionalStreams() {
        return flupke.maxTotalPeerInitiatedBidirectionalStreams();
    }

    @Override
    public int minUnidirectionalStreamReceiverBufferSize() {
        return flupke.minUnidirectionalStreamReceiverBufferSize();
    }

    @Override
    public long maxUnidirectionalStreamReceiverBufferSize() {
        return flupke.maxUnidirectionalStreamReceiverBufferSize();
    }

    @Override
    public int minBidirectionalStreamReceiverBufferSize() {
        return flupke.minBidirectionalStreamReceiverBufferSize();
    }

    @Override
    public long maxBidirectionalStreamReceiverBufferSize() {
        return flupke.maxBidirectionalStreamReceiverBufferSize();
    }

    @Override
    public boolean enableDatagramExtension() {
        return flupke.enableDatagramExtension();
    }

    /** Stops the request threads. */
    void close() {
        threads.shutdownNow();
    }
}
