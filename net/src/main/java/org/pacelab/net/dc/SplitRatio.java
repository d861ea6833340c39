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
        try {
            if (s.endsWith("%")) {
                a = new BigDecimal(s.substring(0, s.length() - 1).strip());
                if (a.compareTo(BigDecimal.valueOf(100)) > 0) {
                    throw new SpecException(where + ": '" + text + "' is more than 100% on path a; " + CHOICES);
                }
                b = BigDecimal.valueOf(100).subtract(a);
            } else {
                int colon = s.indexOf(':');
                if (colon < 0 || s.indexOf(':', colon + 1) >= 0) throw new NumberFormatException();
                a = new BigDecimal(s.substring(0, colon).strip());
                b = new BigDecimal(s.substring(colon + 1).strip());
            }
        } catch (NumberFormatException e) {
            throw new SpecException(where + ": '" + text + "' is not a split ratio; " + CHOICES);
        }
        if (a.signum() < 0 || b.signum() < 0) {
            throw new SpecException(where + ": '" + text + "' has a negative side; " + CHOICES);
        }
        if (a.signum() == 0 && b.signum() == 0) {
            throw new SpecException(where + ": '" + text + "' sums to zero, so no packet could be sent; at least one side "
                    + "must be positive, e.g. 1:0 for path a only");
        }
        int scale = Math.max(Math.max(a.scale(), b.scale()), 0);
        if (scale > 9) throw new SpecException(where + ": '" + text + "' has more than 9 decimals; " + CHOICES);
        BigInteger ia = a.movePointRight(scale).toBigIntegerExact();
        BigInteger ib = b.movePointRight(scale).toBigIntegerExact();
        BigInteger gcd = ia.gcd(ib);
        ia = ia.divide(gcd);
        ib = ib.divide(gcd);
        if (ia.bitLength() > 40 || ib.bitLength() > 40) {
            throw new SpecException(where + ": '" + text + "' is too large; " + CHOICES);
        }
        return new SplitRatio(ia.longValueExact(), ib.longValueExact());
    }
}
