package org.pacelab.lab.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;

import org.junit.jupiter.api.Test;

class SuggestionsTest {
    @Test
    void distanceCountsEditsAndTranspositions() {
        assertEquals(0, Suggestions.distance("cubic", "cubic"));
        assertEquals(1, Suggestions.distance("cubik", "cubic"));
        assertEquals(1, Suggestions.distance("tranfser", "transfer"));
        assertEquals(1, Suggestions.distance("ab", "ba"));
        assertEquals(1, Suggestions.distance("repetition", "repetitions"));
        assertEquals(2, Suggestions.distance("pacr", "pacer") + 1);
        assertEquals(3, Suggestions.distance("", "abc"));
    }

    @Test
    void suggestsTheClosestWordWithinTwoEdits() {
        List<String> keys = List.of("name", "link", "transfer", "repetitions", "implementations");
        assertEquals("transfer", Suggestions.closest("tranfser", keys));
        assertEquals("repetitions", Suggestions.closest("repetitons", keys));
        assertEquals("implementations", Suggestions.closest("Implementation", keys));
        assertNull(Suggestions.closest("colour", keys));
        assertEquals(" (did you mean 'link'?)", Suggestions.didYouMean("lnik", keys));
        assertEquals("", Suggestions.didYouMean("zzzz", keys));
    }

    @Test
    void shortWordsNeedACloserMatch() {
        assertNull(Suggestions.closest("bb", List.of("cc")));
        assertEquals("cc", Suggestions.closest("c", List.of("cc")));
    }
}
