package org.pacelab.sim.output;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.net.link.Direction;
import org.pacelab.net.link.DropCause;
import org.pacelab.net.link.EventType;
import org.pacelab.net.link.Packet;
import org.pacelab.net.pcap.IpUdpHeaders;
import org.pacelab.net.pcap.PcapngWriter;
import org.pacelab.net.testing.Stalls;

/**
 * TapRecorder: the capture written on its writer thread holds the bytes the synchronous tap wrote (headers built and
 * the block written on the run's thread, as before), in event order, whatever the run does to a datagram's bytes after
 * the event; the run waits for a stalled writer instead of queueing without bound; the writer's failure is thrown on
 * the run's thread as one sentence naming the file, and the capture is then not renamed into place; a run that fails
 * ends a writer that is blocked. Waits are bounded by generous timeouts; assertions are on bytes and state.
 */
class TapRecorderTest {
    private static final InetSocketAddress SERVER = new InetSocketAddress("10.77.1.1", 4433);
    private static final List<InetSocketAddress> CLIENTS = List.of(new InetSocketAddress("10.77.0.2", 50000),
            new InetSocketAddress("10.77.0.3", 50001), new InetSocketAddress("10.77.0.4", 50002));

    @TempDir
    Path dir;

    /** One tap event: what the link model tells its observers. */
    private record Event(EventType type, int direction, Packet packet, long time) {}

    /**
     * Events of three flows in both directions: tapped ones (TAP down, DELIVER up) of every size from empty to a GSO
     * super-datagram, odd lengths, payloads at an offset and direct buffers, and events the tap ignores in between;
     * more datagrams and bytes than all the batches hold together, so batches are reused.
     */
    private static List<Event> events(long seed, int count) {
        SplittableRandom r = new SplittableRandom(seed);
        List<Event> events = new ArrayList<>();
        long t = 1_000_000_000L;
        for (int i = 0; i < count; i++) {
            t += r.nextInt(1, 200_000);
            boolean down = r.nextInt(3) != 0;
            int len = switch (r.nextInt(10)) {
                case 0 -> r.nextInt(0, 40);
                case 1 -> r.nextInt(1200, 65_000);
                default -> r.nextInt(40, 1500);
            };
            int offset = r.nextInt(4) == 0 ? r.nextInt(1, 9) : 0;
            ByteBuffer payload = r.nextBoolean() ? ByteBuffer.allocate(offset + len + 3) : ByteBuffer.allocateDirect(offset + len + 3);
            for (int j = 0; j < payload.capacity(); j++) {
                payload.put(j, (byte) r.nextInt(256));
            }
            payload.position(offset).limit(offset + len);
            Packet p = new Packet(i, 1 + r.nextInt(CLIENTS.size()), Math.max(1, len + 28), payload);
            int direction = (down ? Direction.DOWN : Direction.UP).index();
            events.add(new Event(down ? EventType.TAP : EventType.DELIVER, direction, p, t));
            if (r.nextInt(4) == 0) {
                // not tapped: an arrival, the other end's event, a drop
                EventType other = switch (r.nextInt(3)) {
                    case 0 -> EventType.ARRIVAL;
                    case 1 -> down ? EventType.DELIVER : EventType.TAP;
                    default -> EventType.DROP;
                };
                events.add(new Event(other, direction, p, t));
            }
        }
        return events;
    }

    /** The tap as it was written before it had a thread: headers built and the block written on the calling thread. */
    private static byte[] synchronous(Path file, List<Event> events, int snaplen) throws IOException {
        try (PcapngWriter w = new PcapngWriter(file, PcapngWriter.LINKTYPE_RAW, snaplen, "tap")) {
            for (Event e : events) {
                boolean down = e.direction() == Direction.DOWN.index();
                if (down ? e.type() != EventType.TAP : e.type() != EventType.DELIVER) {
                    continue;
                }
                InetSocketAddress client = CLIENTS.get(e.packet().flow() - 1);
                ByteBuffer payload = e.packet().payload().duplicate();
                w.write(VirtualEpoch.toEpochNanos(e.time()), IpUdpHeaders.build(down ? SERVER : client, down ? client : SERVER,
                        payload), payload);
            }
        }
        return Files.readAllBytes(file);
    }

    /**
     * Feeds the events to a recorder; after each event the datagram's bytes are overwritten, as the receiver decrypts
     * in place, so the capture holds the bytes at the event only if the run's thread copied them.
     */
    private static void feed(TapRecorder tap, List<Event> events) {
        for (Event e : events) {
            Packet p = e.packet();
            ByteBuffer before = p.payload().duplicate();
            tap.onEvent(e.type(), e.direction(), p, e.time(), DropCause.NONE, 0);
            scribble(before);
        }
    }

    private static void scribble(ByteBuffer b) {
        for (int i = b.position(); i < b.limit(); i++) {
            b.put(i, (byte) (b.get(i) ^ 0x5a));
        }
    }

    /**
     * Undoes what {@link #feed} did to the payloads (once per event, as feeding did; a packet with two events was
     * scribbled over twice), so that the synchronous tap sees the bytes as they were at the events.
     */
    private static void unscribble(List<Event> events) {
        for (Event e : events) {
            scribble(e.packet().payload().duplicate());
        }
    }

    @Test
    void theThreadWritesTheBytesTheSynchronousTapWrote() throws IOException {
        for (long seed = 1; seed <= 3; seed++) {
            List<Event> events = events(seed, 9_000);
            long tapped = events.stream().filter(e -> e.type() == (e.direction() == Direction.DOWN.index() ? EventType.TAP
                    : EventType.DELIVER)).count();
            assertTrue(tapped > (long) TapRecorder.BATCH_PACKETS * TapRecorder.BATCHES, "more datagrams than the batches hold");
            ByteArrayOutputStream copied = new ByteArrayOutputStream();
            List<String> writers = new ArrayList<>();
            Path threaded = dir.resolve("threaded-" + seed + ".pcapng");
            PcapngWriter w = new PcapngWriter(threaded, PcapngWriter.LINKTYPE_RAW, 0, "tap", b -> {
                byte[] block = new byte[b.remaining()];
                b.get(block);
                copied.writeBytes(block);
                writers.add(Thread.currentThread().getName());
            });
            TapRecorder tap = new TapRecorder(w, SERVER, CLIENTS);
            feed(tap, events);
            tap.close();
            // the file's header block is written by the constructor; every packet's block by the writer's thread
            assertTrue(writers.size() > 2, "blocks: " + writers.size());
            assertEquals(List.of("tap-writer"), writers.subList(1, writers.size()).stream().distinct().toList());
            assertFalse(tap.writerThread().isAlive(), "the writer ends at close");
            assertFalse(Files.exists(dir.resolve("threaded-" + seed + ".pcapng.part")));
            unscribble(events);
            byte[] expected = synchronous(dir.resolve("sync-" + seed + ".pcapng"), events, 0);
            byte[] actual = Files.readAllBytes(threaded);
            assertEquals(expected.length, actual.length, "seed " + seed);
            assertArrayEquals(expected, actual, "seed " + seed);
            assertArrayEquals(expected, copied.toByteArray(), "the capture's reader is given the file's bytes in order");
        }
    }

    @Test
    void aSnaplenCutsTheSameBytes() throws IOException {
        List<Event> events = events(7, 3_000);
        Path threaded = dir.resolve("snap.pcapng");
        TapRecorder tap = new TapRecorder(new PcapngWriter(threaded, PcapngWriter.LINKTYPE_RAW, 100, "tap"), SERVER, CLIENTS);
        feed(tap, events);
        tap.close();
        unscribble(events);
        assertArrayEquals(synchronous(dir.resolve("snap-sync.pcapng"), events, 100), Files.readAllBytes(threaded));
    }

    @Test
    void theRunWaitsForAStalledWriterInsteadOfQueueingWithoutBound() throws Exception {
        List<Event> events = events(11, 6_000);
        CountDownLatch stall = new CountDownLatch(1);
        AtomicInteger blocks = new AtomicInteger();
        Path file = dir.resolve("stalled.pcapng");
        PcapngWriter w = new PcapngWriter(file, PcapngWriter.LINKTYPE_RAW, 0, "tap", b -> {
            // the first block (the file's header) passes; the second waits until released
            if (blocks.incrementAndGet() == 2) {
                try {
                    stall.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        });
        TapRecorder tap = new TapRecorder(w, SERVER, CLIENTS);
        AtomicInteger fed = new AtomicInteger();
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread run = Thread.ofPlatform().name("run").start(() -> {
            try {
                for (Event e : events) {
                    tap.onEvent(e.type(), e.direction(), e.packet(), e.time(), DropCause.NONE, 0);
                    fed.incrementAndGet();
                }
            } catch (Throwable t) {
                failed.set(t);
            }
        });
        // the run stops when every batch is full, far before the end of the events
        Stalls.awaitStalled(run, fed::get, Duration.ofSeconds(30));
        assertTrue(run.isAlive(), "the run waits for the writer");
        assertTrue(fed.get() < events.size(), "the run did not queue all " + events.size() + " events");
        // what is held: the batches (BATCHES of BATCH_BYTES) and the writer's 1 MiB buffer, not the rest of the run
        long held = 0;
        for (Event e : events.subList(0, fed.get())) {
            if (e.type() == (e.direction() == Direction.DOWN.index() ? EventType.TAP : EventType.DELIVER)) {
                held += e.packet().payload().remaining();
            }
        }
        assertTrue(held <= (long) TapRecorder.BATCHES * TapRecorder.BATCH_BYTES + (1 << 20) + 65_536,
                "the run handed over " + held + " bytes to a stalled writer");
        stall.countDown();
        run.join(TimeUnit.SECONDS.toMillis(60));
        assertFalse(run.isAlive());
        assertEquals(null, failed.get());
        assertEquals(events.size(), fed.get());
        tap.close();
        assertArrayEquals(synchronous(dir.resolve("stalled-sync.pcapng"), events, 0), Files.readAllBytes(file));
    }

    /** A writer whose file fails after {@code okBlocks} blocks, as a full disk would. */
    private static Consumer<ByteBuffer> failingAfter(int okBlocks) {
        AtomicInteger n = new AtomicInteger();
        return b -> {
            if (n.incrementAndGet() > okBlocks) {
                throw new UncheckedIOException("cannot write capture", new IOException("No space left on device"));
            }
        };
    }

    @Test
    void theWritersFailureIsThrownOnTheRunsThreadAndNothingIsRenamed() throws IOException {
        Path file = dir.resolve("failing.pcapng");
        TapRecorder tap = new TapRecorder(new PcapngWriter(file, PcapngWriter.LINKTYPE_RAW, 0, "tap", failingAfter(3)),
                SERVER, CLIENTS);
        List<Event> events = events(13, 20_000);
        UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> feed(tap, events));
        assertEquals("cannot write the capture " + file + ": No space left on device", e.getCause().getMessage());
        tap.discard();
        assertFalse(tap.writerThread().isAlive());
        assertFalse(Files.exists(file));
        assertFalse(Files.exists(dir.resolve("failing.pcapng.part")));
    }

    @Test
    void aFailureInTheLastBlocksIsThrownByClose() throws IOException {
        Path file = dir.resolve("late.pcapng");
        // the header's block passes; the rest of a short run is written only at close
        TapRecorder tap = new TapRecorder(new PcapngWriter(file, PcapngWriter.LINKTYPE_RAW, 0, "tap", failingAfter(1)),
                SERVER, CLIENTS);
        feed(tap, events(17, 50));
        IOException e = assertThrows(IOException.class, tap::close);
        assertEquals("cannot write the capture " + file + ": No space left on device", e.getMessage());
        assertFalse(tap.writerThread().isAlive());
        assertFalse(Files.exists(file));
        assertFalse(Files.exists(dir.resolve("late.pcapng.part")));
        tap.discard(); // as the run's clean-up does after a failed close: nothing left to do
        assertFalse(Files.exists(dir.resolve("late.pcapng.part")));
    }

    @Test
    void discardEndsAWriterThatIsBlocked() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        AtomicInteger blocks = new AtomicInteger();
        AtomicReference<Boolean> interrupted = new AtomicReference<>(false);
        Path file = dir.resolve("blocked.pcapng");
        PcapngWriter w = new PcapngWriter(file, PcapngWriter.LINKTYPE_RAW, 0, "tap", b -> {
            if (blocks.incrementAndGet() == 2) {
                entered.countDown();
                try {
                    never.await();
                } catch (InterruptedException e) {
                    interrupted.set(true);
                    Thread.currentThread().interrupt();
                }
            }
        });
        TapRecorder tap = new TapRecorder(w, SERVER, CLIENTS);
        // 1.8 MB of datagrams: the writer blocks at its first 1 MiB block; the run's thread still finds free batches
        List<Event> events = new ArrayList<>();
        for (int i = 0; i < 1_300; i++) {
            events.add(new Event(EventType.TAP, Direction.DOWN.index(), new Packet(i, 1, 1_428, ByteBuffer.allocate(1_400)),
                    1_000_000L * i));
        }
        feed(tap, events);
        assertTrue(entered.await(30, TimeUnit.SECONDS), "the writer reached its blocking block");
        assertTrue(tap.writerThread().isAlive());
        tap.discard();
        assertFalse(tap.writerThread().isAlive());
        assertTrue(interrupted.get(), "the blocked writer was interrupted");
        assertFalse(Files.exists(file));
        assertFalse(Files.exists(dir.resolve("blocked.pcapng.part")));
    }

    @Test
    void aPacketOfNoFlowIsRefusedAtTheEvent() throws IOException {
        TapRecorder tap = new TapRecorder(new PcapngWriter(dir.resolve("x.pcapng"), PcapngWriter.LINKTYPE_RAW, 0, "tap"),
                SERVER, CLIENTS);
        Packet p = new Packet(1, 4, 100, ByteBuffer.allocate(72));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> tap.onEvent(EventType.TAP, Direction.DOWN.index(), p, 0, DropCause.NONE, 0));
        assertEquals("the tap saw a packet of flow 4; the run has flows 1 to 3", e.getMessage());
        tap.discard();
        assertFalse(Files.exists(dir.resolve("x.pcapng.part")));
    }
}
