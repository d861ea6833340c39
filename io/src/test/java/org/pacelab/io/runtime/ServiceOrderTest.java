package org.pacelab.io.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class ServiceOrderTest {
    @Test
    void eachTurnStartsOneConnectionFurtherAlong() {
        ServiceOrder order = new ServiceOrder();
        List<Integer> firsts = new ArrayList<>();
        for (int turn = 0; turn < 7; turn++) {
            firsts.add(order.first(3));
        }
        assertEquals(List.of(0, 1, 2, 0, 1, 2, 0), firsts);
    }

    @Test
    void aSingleConnectionIsAlwaysServedFirstAndTakesNoTurn() {
        ServiceOrder order = new ServiceOrder();
        assertEquals(0, order.first(1));
        assertEquals(0, order.first(0));
        assertEquals(0, order.first(1));
        // the turns of one connection did not count: two connections start with the first
        assertEquals(0, order.first(2));
        assertEquals(1, order.first(2));
    }

    @Test
    void aChangingNumberOfConnectionsStaysInRange() {
        ServiceOrder order = new ServiceOrder();
        for (int turn = 0; turn < 50; turn++) {
            int count = 2 + turn % 4;
            int first = order.first(count);
            assertEquals(true, first >= 0 && first < count, "turn " + turn + ": " + first + " of " + count);
        }
    }
}
