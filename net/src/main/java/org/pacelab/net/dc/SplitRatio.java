package org.pacelab.net.dc;

import java.math.BigDecimal;
import java.math.BigInteger;
import org.pacelab.net.spec.SpecException;

/**
 * How many batches go to path a for every {@code b} batches to path b, reduced to lowest terms (9:1, 1:1, 7:3).
 * One side may be 0 (everything on the other path); not both.
 */
public record SplitRatio(long a, long b) {
    public static final SplitRatio EVEN = new SplitRatio(1, 1);
    private static final String CHOICES = "write A:B with non-negative numbers, e.g. 9:1, 1:1 or 0.7:0.3, or the share of "
            + "path a as a percentage, e.g. 90%";

    public SplitRatio {
        if (a < 0 || b < 0 || a + b <= 0) throw new IllegalArgumentException("a split ratio needs a, b >= 0 and a + b > 0");
    }

    /** The share of batches on path a, 0 to 1. */
    public double shareA() { return (double) a / (a + b); }

    @Override
    public String toString() { return a + ":" + b; }

    /**
     * Reads {@code A:B} (non-negative decimals, e.g. {@code 9:1}, {@code 0.7:0.3}) or {@code P%} (the share on
     * path a, e.g. {@code 90%} = 9:1). {@code where} names the field for errors.
     */
    public static SplitRatio parse(String where, String text) throws SpecException {
        String s = text == null ? "" : text.strip();
        BigDecimal a, b;
        if (s.endsWith("%")) {
            a = side(where, text, s.substring(0, s.length() - 1));
            if (a.compareTo(HUNDRED) > 0) {
                throw new SpecException(where + ": '" + text + "' is more than 100% on path a; " + CHOICES);
            }
            b = HUNDRED.subtract(a);
        } else {
            int colon = s.indexOf(':');
            if (colon < 0 || s.indexOf(':', colon + 1) >= 0) {
                throw new SpecException(where + ": '" + text + "' is not a split ratio; " + CHOICES);
            }
            a = side(where, text, s.substring(0, colon));
            b = side(where, text, s.substring(colon + 1));
        }
        if (a.signum() == 0 && b.signum() == 0) {
            throw new SpecException(where + ": '" + text + "' sums to zero, so no packet could be sent; at least one side "
                    + "must be positive, e.g. 1:0 for path a only");
        }
        int scale = Math.max(Math.max(a.scale(), b.scale()), 0);
        BigInteger ia = a.setScale(scale).unscaledValue();
        BigInteger ib = b.setScale(scale).unscaledValue();
        BigInteger gcd = ia.gcd(ib);
        ia = ia.divide(gcd);
        ib = ib.divide(gcd);
        if (ia.bitLength() > 40 || ib.bitLength() > 40) {
            throw new SpecException(where + ": '" + text + "' is too large; " + CHOICES);
        }
        return new SplitRatio(ia.longValueExact(), ib.longValueExact());
    }

    private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);
    /** Integer digits a side may have: 40 bits, the reduced ratio's bound, is 13 decimal digits. */
    private static final int MAX_INTEGER_DIGITS = 13;
    private static final int MAX_DECIMALS = 9;

    /**
     * One side of the ratio, bounded before any arithmetic: a number like {@code 1e1000000000} parses as a BigDecimal
     * but rescaling it would build a billion-digit integer (found by LinkSpecFuzzTest#dcSpec).
     */
    private static BigDecimal side(String where, String text, String part) throws SpecException {
        BigDecimal d;
        try {
            d = new BigDecimal(part.strip()).stripTrailingZeros();
        } catch (NumberFormatException e) {
            throw new SpecException(where + ": '" + text + "' is not a split ratio; " + CHOICES);
        }
        if (d.signum() < 0) throw new SpecException(where + ": '" + text + "' has a negative side; " + CHOICES);
        if (d.signum() == 0) return BigDecimal.ZERO;
        if (d.scale() > MAX_DECIMALS) {
            throw new SpecException(where + ": '" + text + "' has more than " + MAX_DECIMALS + " decimals; " + CHOICES);
        }
        if ((long) d.precision() - d.scale() > MAX_INTEGER_DIGITS) {
            throw new SpecException(where + ": '" + text + "' is too large; " + CHOICES);
        }
        return d;
    }
}
