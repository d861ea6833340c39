package org.pacelab.analysis.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.math.BigInteger;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

class TimestampResolutionTest {
    @Property
    void binaryResolutionMatchesExactArithmetic(@ForAll @IntRange(min = 0, max = 40) int exponent,
                                                @ForAll @LongRange(min = 0, max = 1L << 62) long units) {
        TimestampResolution r = TimestampResolution.ofOption(0x80 | exponent, 0);
        BigInteger exact = BigInteger.valueOf(units).multiply(BigInteger.valueOf(1_000_000_000L)).shiftRight(exponent);
        if (exact.bitLength() < 63) {
            assertEquals(exact.longValueExact(), r.toNanos(units));
        }
    }

    @Property
    void decimalResolutionScales(@ForAll @IntRange(min = 0, max = 9) int exponent,
                                 @ForAll @LongRange(min = 0, max = 1_000_000_000L) long units) {
        TimestampResolution r = TimestampResolution.ofOption(exponent, 2);
        assertEquals(units * (long) Math.pow(10, 9 - exponent) + 2_000_000_000L, r.toNanos(units));
    }

    @Test
    void finerThanNanosecondsIsTruncated() {
        assertEquals(1_234, TimestampResolution.ofOption(12, 0).toNanos(1_234_567));
    }

    @Test
    void outOfRangeResolutionIsRejected() {
        assertNull(TimestampResolution.ofOption(19, 0));
    }
}
