package org.pacelab.lab.scenario;

import java.util.Collection;
import java.util.Locale;

/** "Did you mean" for misspelt keys and values: the closest valid word within a small edit distance. */
public final class Suggestions {
    private Suggestions() {}

    /** The closest candidate to {@code word}, or null when none is close (at most 2 edits, or 1 for short words). */
    public static String closest(String word, Collection<String> candidates) {
        String w = word.toLowerCase(Locale.ROOT);
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String c : candidates) {
            int d = distance(w, c.toLowerCase(Locale.ROOT));
            if (d < bestDistance) {
                bestDistance = d;
                best = c;
            }
        }
        int allowed = w.length() <= 3 ? 1 : 2;
        return bestDistance <= allowed ? best : null;
    }

    /** " did you mean 'x'?" or the empty string. */
    public static String didYouMean(String word, Collection<String> candidates) {
        String c = closest(word, candidates);
        return c == null ? "" : " (did you mean '" + c + "'?)";
    }

    /** Optimal string alignment distance: insertions, deletions, substitutions and adjacent transpositions. */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
