package org.pacelab.sim.output;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.frame.AckFrame;
import org.pacelab.quic.frame.Frame;
import org.pacelab.quic.frame.PaddingFrame;
import org.pacelab.quic.packet.PacketType;
import org.pacelab.quic.qlog.QlogJsonSeqWriter;
import org.pacelab.quic.qlog.QlogSink;
import org.pacelab.quic.stream.StreamDataSent;

/**
 * QlogWriterThread: the records written on its thread are the bytes the writer makes when called directly, in call
 * order across the sinks that share it; a sink's failure is thrown on the run's thread; an aborted run's writer ends
 * even while its output blocks. Waits are bounded with generous timeouts; assertions are on bytes and state.
 */
class QlogWriterThreadTest {
    private static final byte[] ODCID = {1, 2, 3, 4, 5, 6, 7, 8};

    private static QlogJsonSeqWriter writer(OutputStream out) {
        return new QlogJsonSeqWriter(out, "pacelab server 0102030405060708", "server", ODCID, 1.7e12, 0, true, false);
    }

    /** Every kind of event, more of them than several batches hold. */
    private static void events(QlogSink q) {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("max_idle_timeout", 30_000L);
        params.put("disable_active_migration", true);
        params.put("initial_source_connection_id", ODCID);
        q.connectionStarted(0, "10.77.1.1:4433", "10.77.0.2:50000", ODCID, new byte[] {9, 9});
        q.parametersSet(1, true, params);
        for (int i = 0; i < 3 * QlogWriterThread.BATCH + 17; i++) {
            long t = 1_000_000L * i + 123;
            List<Frame> frames = new ArrayList<>();
            frames.add(new StreamDataSent(0, 1200L * i, 1200, i % 100 == 99));
            if (i % 7 == 0) {
                frames.add(new PaddingFrame(3));
            }
            q.packetSent(t, PacketType.ONE_RTT, i, 1252, t - 5, frames);
            q.packetReceived(t + 7, PacketType.ONE_RTT, i, 40,
                    List.of(new AckFrame(i, 25, new long[] {i, Math.max(0, i - 3)}, null)));
            if (i % 5 == 0) {
                q.metricsUpdated(t + 9, 20_000_000, 21_500_000 + i, 22_000_001, 3_000_000, 12_000 + i, 8_000, Long.MAX_VALUE,
                        10_000_000);
            }
            if (i % 97 == 0) {
                q.packetLost(t + 11, PacketType.ONE_RTT, i / 2, "time_threshold");
                q.congestionStateUpdated(t + 11, "slow_start", "recovery");
                q.packetDropped(t + 12, PacketType.HANDSHAKE, 1200, "key_unavailable");
            }
        }
        q.keyUpdated(9_000_000_000L, "server_1rtt_secret", 1, "local_update");
        q.migrationStateUpdated(9_000_000_001L, "validated", "10.77.0.2:50000", "");
        q.connectionClosed(9_000_000_002L, true, 0, true, "done");
        q.close();
    }

    @Test
    void recordsWrittenOnTheThreadAreTheBytesOfTheDirectWriter() {
        ByteArrayOutputStream direct = new ByteArrayOutputStream();
        events(writer(direct));

        ByteArrayOutputStream deferred = new ByteArrayOutputStream();
        QlogWriterThread t = new QlogWriterThread();
        events(t.defer(writer(deferred)));
        t.finish();

        assertTrue(direct.size() > 100_000, "the events made " + direct.size() + " bytes");
        assertArrayEquals(direct.toByteArray(), deferred.toByteArray());
    }

    /** A QlogSink method the deferred sink did not override would fall to the interface's default: a lost event. */
    @Test
    void theDeferredSinkPassesOnEveryMethodOfTheSink() throws NoSuchMethodException {
        QlogWriterThread t = new QlogWriterThread();
        Class<?> deferred = t.defer(QlogSink.NONE).getClass();
        for (java.lang.reflect.Method m : QlogSink.class.getDeclaredMethods()) {
            if (!java.lang.reflect.Modifier.isStatic(m.getModifiers())) {
                assertEquals(deferred, deferred.getMethod(m.getName(), m.getParameterTypes()).getDeclaringClass(),
                        m.getName() + " is not passed on");
            }
        }
        t.finish();
    }

    @Test
    void callsOfSinksSharingTheThreadKeepTheirOrderAndRunOnIt() {
        List<String> calls = new ArrayList<>();
        QlogWriterThread t = new QlogWriterThread();
        QlogSink a = t.defer(recording("a", calls));
        QlogSink b = t.defer(recording("b", calls));
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 2 * QlogWriterThread.BATCH + 3; i++) {
            QlogSink s = i % 3 == 0 ? b : a;
            s.packetLost(i, PacketType.ONE_RTT, i, "x");
            expected.add((s == a ? "a" : "b") + i + "@qlog-writer");
        }
        a.close();
        b.close();
        expected.add("a closed");
        expected.add("b closed");
        t.finish();
        assertFalse(t.alive());
        assertEquals(expected, calls);
        a.close(); // after finish: nothing more to write, and no error
        assertEquals(expected, calls);
    }

    @Test
    void aSinksFailureIsThrownOnTheRunsThreadAndTheRestIsNotWritten() {
        IOException disk = new IOException("No space left on device");
        List<String> calls = new ArrayList<>();
        QlogWriterThread t = new QlogWriterThread();
        QlogSink failing = t.defer(new QlogSink() {
            @Override
            public void packetLost(long now, PacketType type, long packetNumber, String trigger) {
                calls.add("lost " + packetNumber);
                if (packetNumber == 2) {
                    throw new UncheckedIOException("qlog write failed", disk);
                }
            }
        });
        for (int i = 0; i < 10; i++) {
            failing.packetLost(i, PacketType.ONE_RTT, i, "x");
        }
        UncheckedIOException e = assertThrows(UncheckedIOException.class, t::finish);
        assertSame(disk, e.getCause());
        assertEquals(List.of("lost 0", "lost 1", "lost 2"), calls);
        assertThrows(UncheckedIOException.class, t::finish); // asked again, the same answer
    }

    @Test
    void aFailureIsThrownAtAHandOverBeforeTheEnd() throws InterruptedException {
        CountDownLatch failed = new CountDownLatch(1);
        QlogWriterThread t = new QlogWriterThread();
        QlogSink failing = t.defer(new QlogSink() {
            @Override
            public void packetLost(long now, PacketType type, long packetNumber, String trigger) {
                failed.countDown();
                throw new UncheckedIOException("qlog write failed", new IOException("EIO"));
            }
        });
        for (int i = 0; i < QlogWriterThread.BATCH; i++) {
            failing.packetLost(i, PacketType.ONE_RTT, i, "x"); // the last one hands the first batch over
        }
        assertTrue(failed.await(60, TimeUnit.SECONDS), "the writer did not run the batch");
        // the writer records the failure just after the sink threw; a hand-over after that throws it (the failed writer
        // only skips what it is handed, so the queue never holds the run up)
        boolean thrown = false;
        for (int batches = 0; batches < 100_000 && !thrown; batches++) {
            try {
                for (int i = 0; i < QlogWriterThread.BATCH; i++) {
                    failing.packetLost(i, PacketType.ONE_RTT, i, "x");
                }
            } catch (UncheckedIOException e) {
                thrown = true;
            }
        }
        assertTrue(thrown, "the failure was not thrown at a hand-over");
        t.abort();
    }

    @Test
    void anAbortedWriterEndsWhileItsOutputBlocks() throws InterruptedException {
        CountDownLatch writing = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        QlogWriterThread t = new QlogWriterThread();
        QlogSink blocked = t.defer(new QlogSink() {
            @Override
            public void packetLost(long now, PacketType type, long packetNumber, String trigger) {
                writing.countDown();
                try {
                    never.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new UncheckedIOException("qlog write failed", new java.io.InterruptedIOException());
                }
            }
        });
        for (int i = 0; i < QlogWriterThread.BATCH; i++) {
            blocked.packetLost(i, PacketType.ONE_RTT, i, "x");
        }
        assertTrue(writing.await(60, TimeUnit.SECONDS), "the writer did not start");
        t.abort();
        assertFalse(t.alive(), "qlog-writer still runs after abort");
    }

    private static QlogSink recording(String name, List<String> calls) {
        return new QlogSink() {
            @Override
            public void packetLost(long now, PacketType type, long packetNumber, String trigger) {
                calls.add(name + packetNumber + "@" + Thread.currentThread().getName());
            }

            @Override
            public void close() {
                calls.add(name + " closed");
            }
        };
    }
}
