package org.pacelab.net.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.net.dc.DcFactory;
import org.pacelab.net.dc.DcSpecParser;
import org.pacelab.net.link.Direction;
import org.pacelab.net.link.DropCause;
import org.pacelab.net.link.EventType;
import org.pacelab.net.link.Link;
import org.pacelab.net.link.LinkObserver;
import org.pacelab.net.link.Packet;
import org.pacelab.net.spec.LinkFactory;
import org.pacelab.net.spec.LinkSpecParser;

class EventLogTest {
    @Test
    void logRoundTripsAndAgreesWithCounters(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("events.bin");
        LinkCounters counters = new LinkCounters();
        try (EventLogWriter log = new EventLogWriter(file, 123L, 7L)) {
            log.describeFlow(1, 0, "udp 127.0.0.1:4433 127.0.0.1:5000");
            Link link = LinkFactory.build(LinkSpecParser.parse("quic-steps", "wire=off", null), 7, 0,
                    LinkObserver.both(log, counters));
            for (int i = 0; i < 400; i++) {
                long t = i * 140_000L;
                link.down().advanceTo(t, (p, tt) -> { });
                link.down().offer(new Packet(i, 1, 1386, null), t);
            }
            link.down().advanceTo(Long.MAX_VALUE - 1, (p, t) -> { });
            assertTrue(Files.exists(dir.resolve("events.bin.part")));
            assertFalse(Files.exists(file));
        }
        assertFalse(Files.exists(dir.resolve("events.bin.part")));
        EventLogSummary s = EventLogReader.summarize(file);
        assertEquals(128, s.drops(Direction.DOWN, DropCause.QUEUE_FULL));
        assertEquals(counters.drops(Direction.DOWN, DropCause.QUEUE_FULL), s.drops(Direction.DOWN, DropCause.QUEUE_FULL));
        assertEquals(400, s.count(Direction.DOWN, EventType.ARRIVAL));
        assertEquals(272, s.count(Direction.DOWN, EventType.DELIVER));
        assertEquals(143, s.maxQueue(Direction.DOWN));
        assertEquals("udp 127.0.0.1:4433 127.0.0.1:5000", s.flows().get(1));
        List<LogEvent> events = new ArrayList<>();
        EventLogReader.Result r = EventLogReader.read(file, events::add);
        assertEquals(123L, r.epochNanosOfTimeZero());
        assertEquals(7L, r.seed());
        assertEquals(new LogEvent(0, 0, 1, 1386, EventType.ARRIVAL, Direction.DOWN, DropCause.NONE, 0, 0), events.get(0));
    }

    @Test
    void dualConnectivityEventsCarryTheirPath(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("dc.bin");
        try (EventLogWriter log = new EventLogWriter(file, 0, 1)) {
            Link link = DcFactory.build(DcSpecParser.parse("batch=1 wire=off b.loss=100% t-reordering=10ms", null, null,
                    null), 1, 0, log);
            for (int i = 0; i < 3; i++) {
                long t = i * 1_000_000L;
                link.down().advanceTo(t, (p, tt) -> { });
                link.down().offer(new Packet(i, 1, 1000, null), t);
            }
            link.down().advanceTo(Long.MAX_VALUE - 1, (p, t) -> { });
        }
        List<LogEvent> events = new ArrayList<>();
        EventLogReader.read(file, events::add);
        // packet 1 went to path b and was lost; packet 2 (path a) was held until the 10 ms timer released it
        assertEquals(List.of(0, 0), events.stream().filter(e -> e.type() == EventType.ENQUEUE).map(LogEvent::path).toList());
        assertEquals(List.of(1), events.stream().filter(e -> e.type() == EventType.DROP).map(LogEvent::path).toList());
        assertEquals(List.of(LinkObserver.NO_PATH, LinkObserver.NO_PATH, LinkObserver.NO_PATH),
                events.stream().filter(e -> e.type() == EventType.TAP).map(LogEvent::path).toList());
        assertEquals(List.of(2L), events.stream().filter(e -> e.type() == EventType.REORDER_HOLD).map(LogEvent::packetId).toList());
        LogEvent timeout = events.stream().filter(e -> e.type() == EventType.REORDER_TIMEOUT).findFirst().orElseThrow();
        assertEquals(3, timeout.packetId()); // RX_REORD
        assertEquals(1, timeout.queuePackets());
        assertEquals(List.of(0L, 2L), events.stream().filter(e -> e.type() == EventType.REORDER_RELEASE)
                .map(LogEvent::packetId).toList());
    }

    @Test
    void truncatedLogIsReadUpToItsLastWholeRecord(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("e.bin");
        try (EventLogWriter log = new EventLogWriter(file, 0, 0)) {
            for (int i = 0; i < 10; i++) log.onEvent(EventType.ARRIVAL, 0, new Packet(i, 1, 100, null), i, DropCause.NONE, 0);
        }
        byte[] all = Files.readAllBytes(file);
        Files.write(file, java.util.Arrays.copyOf(all, all.length - 5));
        List<LogEvent> events = new ArrayList<>();
        EventLogReader.Result r = EventLogReader.read(file, events::add);
        assertEquals(9, events.size());
        assertEquals(27, r.truncatedBytes());
    }

    @Test
    void notALogIsOneClearSentence(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("x.bin");
        Files.writeString(file, "this is certainly not an event log file");
        assertEquals(file + ": byte offset 0: not a pacelab event log (magic is not PLEVLOG1)",
                assertThrows(EventLogReader.EventLogFormatException.class, () -> EventLogReader.summarize(file)).getMessage());
    }
}
