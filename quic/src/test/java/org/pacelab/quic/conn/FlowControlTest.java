package org.pacelab.quic.conn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.app.ApplicationHandler;
import org.pacelab.quic.app.StreamTransport;
import org.pacelab.quic.stream.StreamLimits;
import org.pacelab.quic.tls.TlsConfig;

/** Connection-level flow control: windows open as the application reads, and as the peer resets streams. */
class FlowControlTest {

    /** Server app: ignores the first stream it sees, counts bytes of the others. */
    static final class SelectiveReader implements ApplicationHandler {
        StreamTransport t;
        long ignored = -1;
        long read;
        boolean resetSeen;

        @Override public void onConnected(StreamTransport transport) { t = transport; }

        @Override
        public void onStreamReadable(long id) {
            if (ignored < 0) {
                ignored = id;
            }
            if (id == ignored) {
                return;
            }
            ByteBuffer b = ByteBuffer.allocate(8192);
            int n;
            while ((n = t.read(id, b)) > 0) {
                read += n;
                b.clear();
            }
        }

        @Override public void onStreamReset(long id, long code) { resetSeen = true; }
    }

    /** Client app: 60 KB on a first stream, resets it, then 60 KB on a second stream. */
    static final class ResetThenSend implements ApplicationHandler {
        StreamTransport t;
        long first = -1;
        long second = -1;
        ByteBuffer secondData = ByteBuffer.allocate(60_000);

        @Override
        public void onConnected(StreamTransport transport) {
            t = transport;
            first = t.openStream(true);
            t.write(first, ByteBuffer.allocate(60_000), false);
        }

        void resetAndContinue() {
            t.resetStream(first, 7);
            second = t.openStream(true);
            t.write(second, secondData, true);
        }

        @Override public void onStreamReadable(long id) { }

        @Override
        public void onStreamWritable(long id) {
            if (id == second) {
                t.write(second, secondData, true);
            }
        }
    }

    @Test
    void resetStreamReleasesUnreadBytesToTheConnectionWindow() throws Exception {
        StreamLimits small = new StreamLimits(64_000, 64_000, 1 << 20, 1 << 20, 16, 16, 1 << 20);
        ConnectionConfig s = ConnectionPair.baseConfig(List.of("hq-interop"), TlsConfig.ALL_SUITES, false).withStreams(small);
        ConnectionConfig c = ConnectionPair.baseConfig(List.of("hq-interop"), TlsConfig.ALL_SUITES, true);
        ResetThenSend client = new ResetThenSend();
        SelectiveReader server = new SelectiveReader();
        ConnectionPair pair = new ConnectionPair(client, server, s, c, 5_000_000L, 40);
        pair.start();
        assertTrue(pair.runUntil(() -> server.ignored >= 0, 5_000_000_000L));
        pair.runUntil(() -> false, 500_000_000L); // let the first stream's bytes arrive
        client.resetAndContinue();
        pair.flush();
        assertTrue(pair.runUntil(() -> server.read == 60_000, 10_000_000_000L),
                "second stream stalled at " + server.read + " bytes: the reset stream's bytes were not released");
        assertTrue(server.resetSeen);
        assertEquals(60_000, server.read);
    }
}
