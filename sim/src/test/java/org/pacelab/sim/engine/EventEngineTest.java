package org.pacelab.sim.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class EventEngineTest {
    /** Fires at the given times, recording "name@time". */
    private static final class Scripted implements Actor {
        final String name;
        final long[] times;
        final List<String> log;
        int next;

        Scripted(String name, List<String> log, long... times) {
            this.name = name;
            this.times = times;
            this.log = log;
        }

        @Override
        public long nextEventTime() {
            return next < times.length ? times[next] : Long.MAX_VALUE;
        }

        @Override
        public void fire(long now) {
            log.add(name + "@" + now);
            next++;
        }
    }

    @Test
    void eventsRunInTimeOrderAndTiesInTheOrderActorsWereAdded() {
        List<String> log = new ArrayList<>();
        EventEngine e = new EventEngine(0);
        e.add(new Scripted("link", log, 5, 10, 20));
        e.add(new Scripted("host", log, 1, 10, 15));
        assertEquals(EventEngine.Stop.IDLE, e.run(Long.MAX_VALUE, () -> false));
        assertEquals(List.of("host@1", "link@5", "link@10", "host@10", "host@15", "link@20"), log);
        assertEquals(6, e.events());
        assertEquals(20, e.now());
    }

    @Test
    void stopsWhenTheConditionHoldsOrAtTheTimeLimit() {
        List<String> log = new ArrayList<>();
        EventEngine e = new EventEngine(0);
        e.add(new Scripted("a", log, 1, 2, 3, 4));
        assertEquals(EventEngine.Stop.CONDITION, e.run(Long.MAX_VALUE, () -> log.size() == 2));
        assertEquals(EventEngine.Stop.TIME_LIMIT, e.run(3, () -> false));
        assertEquals(List.of("a@1", "a@2", "a@3"), log);
        assertEquals(3, e.now());
    }

    @Test
    void anEventInThePastIsRefused() {
        EventEngine e = new EventEngine(100);
        e.add(new Scripted("late", new ArrayList<>(), 50));
        assertThrows(IllegalStateException.class, () -> e.run(Long.MAX_VALUE, () -> false));
    }
}
