package org.pacelab.quic.conn;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;

import org.pacelab.quic.app.ApplicationHandler;
import org.pacelab.quic.app.StreamTransport;

/** Test applications: a client that sends one message per stream, a server that echoes each stream back. */
final class EchoApps {
    /** {@code n} pseudo-random bytes from {@code seed}: a message to echo. */
    static byte[] random(int n, long seed) {
        byte[] b = new byte[n];
        new java.util.Random(seed).nextBytes(b);
        return b;
    }

    private EchoApps() {}

    /**
     * Reads everything stream {@code id} has now into {@code into}.
     *
     * @return -1 when the stream's data ended (FIN), else 0 (nothing more now)
     */
    static int readAvailable(StreamTransport t, long id, ByteArrayOutputStream into) {
        ByteBuffer b = ByteBuffer.allocate(65536);
        while (true) {
            b.clear();
            int n = t.read(id, b);
            if (n <= 0) {
                return n;
            }
            into.write(b.array(), 0, n);
        }
    }

    static final class Server implements ApplicationHandler {
        StreamTransport t;
        final Map<Long, ByteArrayOutputStream> received = new HashMap<>();
        long closedCode = -1;

        @Override
        public void onConnected(StreamTransport transport) {
            t = transport;
        }

        @Override
        public void onStreamReadable(long id) {
            ByteArrayOutputStream got = received.computeIfAbsent(id, k -> new ByteArrayOutputStream());
            if (readAvailable(t, id, got) < 0) {
                ByteBuffer reply = ByteBuffer.wrap(got.toByteArray());
                int w = t.write(id, reply, true);
                if (w != got.size()) {
                    throw new IllegalStateException("echo did not fit the send buffer");
                }
            }
        }

        @Override
        public void onClosed(long errorCode, boolean application, String reason) {
            closedCode = errorCode;
        }
    }

    static class Client implements ApplicationHandler {
        final byte[][] messages;
        final Map<Long, Integer> streamIndex = new HashMap<>();
        final byte[][] replies;
        StreamTransport t;
        int completed;
        boolean connected;
        long closedCode = -1;
        String closedReason;
        private int nextToOpen;
        private final Map<Long, ByteBuffer> pendingWrites = new HashMap<>();
        private final Map<Long, ByteArrayOutputStream> buffers = new HashMap<>();

        Client(byte[]... messages) {
            this.messages = messages;
            this.replies = new byte[messages.length][];
        }

        @Override
        public void onConnected(StreamTransport transport) {
            t = transport;
            connected = true;
            openMore();
        }

        private void openMore() {
            while (nextToOpen < messages.length) {
                long id = t.openStream(true);
                if (id < 0) {
                    return;
                }
                streamIndex.put(id, nextToOpen);
                ByteBuffer data = ByteBuffer.wrap(messages[nextToOpen++]);
                pendingWrites.put(id, data);
                writeSome(id);
            }
        }

        private void writeSome(long id) {
            ByteBuffer data = pendingWrites.get(id);
            if (data == null) {
                return;
            }
            t.write(id, data, true);
            if (!data.hasRemaining()) {
                pendingWrites.remove(id);
            }
        }

        @Override
        public void onStreamWritable(long id) {
            writeSome(id);
        }

        @Override
        public void onStreamsAvailable() {
            openMore();
        }

        @Override
        public void onStreamReadable(long id) {
            ByteArrayOutputStream got = buffers.computeIfAbsent(id, k -> new ByteArrayOutputStream());
            if (readAvailable(t, id, got) < 0 && replies[streamIndex.get(id)] == null) {
                replies[streamIndex.get(id)] = got.toByteArray();
                completed++;
            }
        }

        @Override
        public void onClosed(long errorCode, boolean application, String reason) {
            closedCode = errorCode;
            closedReason = reason;
        }

        boolean done() {
            return completed == messages.length;
        }
    }
}
