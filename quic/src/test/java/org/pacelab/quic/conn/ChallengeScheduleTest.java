package org.pacelab.quic.conn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/** The PATH_CHALLENGE schedule both path validations share (RFC 9000 §8.2.1, §8.2.3, §8.2.4). */
class ChallengeScheduleTest {
    private static final long MS = 1_000_000L;
    /** The default max_ack_delay (RFC 9000 §18.2). */
    private static final long MAX_ACK_DELAY = 25 * MS;

    @Test
    void theInitialPtoIsRfc9002sForAPathWithoutSamples() {
        // kInitialRtt + max(4 * kInitialRtt / 2, kGranularity) = 333 + 666 ms
        assertEquals(999 * MS, ChallengeSchedule.INITIAL_PTO);
        assertEquals(ChallengeSchedule.INITIAL_PTO, ChallengeSchedule.firstInterval(20 * MS));
        assertEquals(1500 * MS, ChallengeSchedule.firstInterval(1500 * MS), "a longer current PTO is kept");
        assertEquals(2 * ChallengeSchedule.INITIAL_PTO, ChallengeSchedule.nextInterval(ChallengeSchedule.INITIAL_PTO));
        assertEquals(1L << 50, ChallengeSchedule.nextInterval(1L << 50), "bounded, no overflow");
    }

    @Test
    void theValidationTimeoutIsThreeTimesTheLargerOfTheCurrentPtoAndTheNewPaths() {
        // RFC 9000 §8.2.4 with RFC 9002 §6.2.1's PTO: the new path's (kInitialRtt) 999 ms + max_ack_delay is larger
        // than a 20 ms path's 20 + 25 ms
        assertEquals(3 * (999 + 25) * MS, ChallengeSchedule.validationTimeout(20 * MS, MAX_ACK_DELAY));
        assertEquals(2997 * MS, ChallengeSchedule.validationTimeout(20 * MS, 0));
        // a current PTO longer than the new path's wins, max_ack_delay included
        assertEquals(3 * (1500 + 25) * MS, ChallengeSchedule.validationTimeout(1500 * MS, MAX_ACK_DELAY));
        assertEquals(3 * (999 + 100) * MS, ChallengeSchedule.validationTimeout(999 * MS, 100 * MS));
    }

    @Test
    void challengesFollowAfterTheInitialPtoDoublingUntilTheDeadline() {
        ChallengeSchedule s = new ChallengeSchedule(new SplittableRandom(1));
        long start = 5_000 * MS;
        long pto = 20 * MS;
        s.start(start, pto, MAX_ACK_DELAY, true);
        long deadline = start + 3072 * MS;
        assertTrue(s.due());
        assertEquals(deadline, s.timer(), "no challenge sent yet: only the deadline");

        List<Long> sentAt = new ArrayList<>();
        long now = start;
        while (!s.onTimeout(now)) {
            if (s.due()) {
                s.take(now);
                sentAt.add(now - start);
                assertFalse(s.due());
            }
            now = s.timer();
        }
        assertEquals(deadline, now);
        // 0, then 999 ms later, then 1998 ms after that; the next one (at 2997 + 3996 ms) would come after the 3072 ms
        // deadline
        assertEquals(List.of(0L, 999 * MS, 2997 * MS), sentAt);
    }

    @Test
    void aTimeoutBeforeTheNextChallengeChangesNothing() {
        ChallengeSchedule s = new ChallengeSchedule(new SplittableRandom(2));
        s.start(0, 10 * MS, MAX_ACK_DELAY, true);
        s.take(0);
        assertFalse(s.onTimeout(ChallengeSchedule.INITIAL_PTO - 1));
        assertFalse(s.due());
        assertEquals(ChallengeSchedule.INITIAL_PTO, s.timer());
        assertFalse(s.onTimeout(ChallengeSchedule.INITIAL_PTO));
        assertTrue(s.due());
        assertEquals(3072 * MS, s.timer(), "the challenge is due: the deadline is next");
    }

    @Test
    void aRoundWithoutChallengesStillHasItsDeadline() {
        ChallengeSchedule s = new ChallengeSchedule(new SplittableRandom(3));
        long pto = 1500 * MS;
        s.start(100 * MS, pto, MAX_ACK_DELAY, false);
        assertFalse(s.due());
        long deadline = 100 * MS + 3 * (pto + MAX_ACK_DELAY);
        assertEquals(deadline, s.timer(), "3 PTO of the current path, longer than the new path's");
        assertFalse(s.onTimeout(deadline - 1));
        assertFalse(s.due());
        assertTrue(s.onTimeout(deadline));
    }

    @Test
    void anyOutstandingChallengeIsAnsweredUntilTheScheduleStops() {
        ChallengeSchedule s = new ChallengeSchedule(new SplittableRandom(4));
        s.start(0, 10 * MS, MAX_ACK_DELAY, true);
        List<byte[]> sent = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            byte[] data = s.take(i);
            assertEquals(8, data.length);
            for (byte[] earlier : sent) {
                assertFalse(Arrays.equals(earlier, data), "unpredictable data for each challenge (§8.2.1)");
            }
            sent.add(data);
        }
        assertFalse(s.answers(sent.get(0)), "eight remembered: the first of nine forgotten");
        for (byte[] data : sent.subList(1, 9)) {
            assertTrue(s.answers(data));
        }
        assertFalse(s.answers(new byte[8]));

        // a new round (a failed validation started again) keeps them; stopping forgets them and the timer
        s.start(100 * MS, 10 * MS, MAX_ACK_DELAY, true);
        assertTrue(s.answers(sent.get(8)));
        byte[] returned = s.take(100 * MS);
        returned[0] ^= 1;
        assertFalse(s.answers(returned), "the caller gets a copy");
        s.stop();
        assertFalse(s.answers(sent.get(8)));
        assertFalse(s.due());
        assertEquals(Long.MAX_VALUE, s.timer());
    }
}
