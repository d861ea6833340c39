package org.pacelab.lab.scenario;

import java.util.ArrayList;
import java.util.List;

/**
 * The words of a command line written as one string (a peer's command template, a stack's options): split at
 * whitespace, single or double quotes keep spaces together and are removed. No other shell syntax.
 *
 * @param words the words, in order
 * @param unclosedQuote the quote character left open at the end, or 0 when every quote was closed
 */
public record CommandWords(List<String> words, char unclosedQuote) {

    public static CommandWords split(String text) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean any = false;
        char quote = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    cur.append(c);
                }
            } else if (c == '"' || c == '\'') {
                quote = c;
                any = true;
            } else if (Character.isWhitespace(c)) {
                if (any || !cur.isEmpty()) {
                    out.add(cur.toString());
                }
                cur.setLength(0);
                any = false;
            } else {
                cur.append(c);
            }
        }
        if (any || !cur.isEmpty()) {
            out.add(cur.toString());
        }
        return new CommandWords(List.copyOf(out), quote);
    }
}
