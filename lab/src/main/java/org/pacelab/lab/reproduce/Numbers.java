package org.pacelab.lab.reproduce;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;

/** Numbers as a reproduction report prints them: four significant digits, no exponent, no trailing zeros. */
final class Numbers {
    private Numbers() {}

    static String format(double v) {
        if (Double.isNaN(v)) {
            return "–";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "∞" : "-∞";
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return String.format(Locale.ROOT, "%d", (long) v);
        }
        BigDecimal d = new BigDecimal(v).round(new MathContext(Math.abs(v) >= 1000 ? 6 : 4));
        String s = d.stripTrailingZeros().toPlainString();
        return s.equals("-0") ? "0" : s;
    }

    /** "mean ± std" (just the mean when the std is unknown). */
    static String meanStd(double mean, double std) {
        return Double.isNaN(std) ? format(mean) : format(mean) + " ± " + format(std);
    }

    /** A share as a percentage: 0.9995 → "99.95 %". */
    static String percent(double share) {
        return format(share * 100) + " %";
    }
}
